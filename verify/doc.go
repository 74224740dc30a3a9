// Package verify checks a fix plan before the user approves it: it copies the
// project into a throwaway folder outside it (copy-on-write where the file system
// offers it), writes the plan's changes into the copy, runs the commands the user
// approved there, and compares the results with a baseline run on an unchanged
// copy, so that only failures the change introduced count against it.
//
// The failing tests the problem names (NamedTests) are looked up in each
// command's output after the change: one that still fails there fails the plan
// whatever the baseline, so a suite that "fails the same way" before and after
// a wrong fix does not hide it.
//
// The outcome is a Report whose State is verified, partly, failed or
// not_verified. The package never writes to the project: every write goes to a
// copy through os.Root, symbolic links that lead outside the project are not
// recreated in the copy, and the copies are removed when Verify returns, also
// when it is cancelled.
//
// The caller provides the Runner that starts the commands (the session's runner
// kills the whole process group and removes API keys from the environment) and,
// optionally, a BaselineCache so that an unchanged project is not run twice.
// verify imports neither apply nor session: the caller computes the bytes of the
// changed files with the apply engine and passes them in a Request.
package verify
