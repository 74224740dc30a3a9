// Package session is fixplan's fix loop: gather base context, ask the model for one
// strict-JSON plan, validate and repair once, fulfil up to two rounds of context
// requests, preview the changes, and later apply, undo and verify them. The CLI and
// the desktop app are thin edges over it: they parse input, call session, and
// present the result in their own words.
//
// The use-case rules both edges rely on live here, each in one place:
//
//   - Opening a project: OpenAndRecover opens it and finishes what a crash
//     interrupted; a recovery that cannot run never blocks the project
//     (session.go).
//   - The model: NewModel builds the client from the settings (model.go); the
//     edges only find the key.
//   - A plan this user's fixplan did not make is never re-planned (loop.go), has
//     no changes written from it (writechanges.go), is never verified and its
//     commands are never offered (verify.go) nor run (session.go); apply never
//     applies it. Every refusal is plan.ForeignPlan.
//   - Commands: RunPlanCommand runs only a command of the plan, never one of a
//     foreign plan (session.go); every command, in the root or in a verification
//     copy, runs only under MayRun — approved for the project or confirmed one by
//     one, never a model's or project's command under a blanket yes (approvals.go,
//     verify.go).
//   - Write-then-verify: WriteChangesVerified (writechanges.go).
//   - Jump to the code: OpenInEditor opens a file the model or the project
//     named at a line in the user's editor, with the Settings' "Open files
//     with" command or the automatic choice; the path is confined to the
//     project and neither it nor the line can become an option or a command
//     (package editor; editor.go).
//   - The cost before you pay it: Estimate works out what a plan will cost
//     before anything is sent (its first request exactly as it will be sent,
//     the worst case of the context rounds and of every request the loop can
//     make), and the per-plan ceiling of the settings (Settings.Ceiling; the
//     CLI's flags override it, CheckCeiling refuses one with no meaning) keeps
//     any request from being sent that would take the plan past it (cost.go,
//     loop.go).
//
// The config folder the edges pass in Options.ConfigDir is resolved by
// internal/config. The ports the loop consumes are in ports.go, the progress
// events in events.go.
package session
