// End-to-end test of the real app: the dev-tagged Go binary serves the frontend
// with its real bindings; Debian's Chromium drives it like a user would.
// Usage: node e2e/app.e2e.mjs URL PROJECT_DIR SCREENSHOT
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync, statSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import assert from "node:assert/strict";

const [url, project, shot] = process.argv.slice(2);
const traceback = `Traceback (most recent call last):
  File "test_calc.py", line 5, in test_divide_by_zero
    assert divide(1, 0) is None
  File "calc.py", line 2, in divide
    return a / b
ZeroDivisionError: division by zero`;

// Checks for verification: the first passes only with b == 0 guarded, the second only
// while divide() keeps true division (7 / 2 == 3.5); both pass with the scripted fix.
const CHECK_FIX = 'python3 -c "import calc; assert calc.divide(1, 0) is None"';
const CHECK_KEEP = 'python3 -c "import calc; assert calc.divide(7, 2) == 3.5"';

/** projectFiles maps every file of the project outside .fixplan to its bytes and mtime. */
function projectFiles(dir, rel = "") {
  const out = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (r === ".fixplan") continue;
    if (e.isDirectory()) Object.assign(out, projectFiles(dir, r));
    else out[r] = { bytes: readFileSync(join(dir, r), "utf8"), mtime: statSync(join(dir, r)).mtimeMs };
  }
  return out;
}

/** sealedPlans reads the project's plan records (the bodies of their sealed envelopes). */
function sealedPlans(project) {
  const dir = join(project, ".fixplan", "plans");
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")).body);
}

/** requestFiles lists the requests the fake provider recorded (E2E_REQUESTS). */
function requestFiles() {
  const dir = process.env.E2E_REQUESTS;
  assert.ok(dir, "E2E_REQUESTS (the fake provider's -record folder) is not set");
  return existsSync(dir) ? readdirSync(dir).filter((f) => /^\d+\.json$/.test(f)) : [];
}

/** saveSettings opens Settings, lets edit change the dialog, saves and closes it. */
async function saveSettings(page, edit) {
  const dialog = page.getByTestId("settings-dialog");
  await page.getByTestId("settings").click();
  await edit(dialog);
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByText("Saved.").waitFor();
  await dialog.getByRole("button", { name: "Close" }).click();
}

/** ceiling: prices set in Settings show what Fix would cost; a low ceiling turns the
 * estimate to a warning and stops Fix before anything is sent, with what to do. */
async function ceiling(page, step, shot) {
  await saveSettings(page, async (d) => {
    await d.getByTestId("price-input").fill("2.5");
    await d.getByTestId("price-output").fill("10");
  });
  await page.getByTestId("problem").fill(traceback);
  const priced = page.locator('[data-testid="estimate"][data-state="ok"]').filter({ hasText: /· cost (up to )?\d/ });
  await priced.waitFor();
  assert.match(await priced.innerText(), /^up to ~[\d,]+ tokens, ~[\d,]+ with 2 context rounds · cost up to [\d.]+, [\d.]+ with rounds$/);
  step("with prices in Settings the estimate next to Fix shows what the plan would cost");

  await saveSettings(page, (d) => d.getByTestId("max-tokens-per-plan").fill("500"));
  const warned = page.locator('[data-testid="estimate"][data-state="over-ceiling"]');
  await warned.waitFor();
  assert.match(await warned.getByTestId("estimate-warning").innerText(), /^Over your ceiling of 500 tokens per plan: Fix would stop before sending anything\.$/);
  await page.screenshot({ path: shot.replace(/\.png$/, "-ceiling.png"), fullPage: false });
  const before = requestFiles().length;
  await page.getByTestId("fix").click();
  const err = page.getByTestId("error");
  await err.waitFor();
  const text = await err.innerText();
  assert.match(text, /the first request of this plan would take up to [\d,]+ tokens \([\d,]+ in, up to 8,192 out\), over your ceiling of 500 tokens per plan; nothing was sent/);
  assert.match(text, /ERR_CEILING/);
  assert.match(text, /raise max tokens per plan in Settings \(or fixplan plan --max-tokens N\)/);
  await new Promise((r) => setTimeout(r, 500)); // the fake provider writes a request down shortly after it arrives
  assert.equal(requestFiles().length, before, "a request over the ceiling was sent");
  step("a ceiling of 500 tokens set in Settings: the estimate warns, and Fix stops before sending anything, saying what to do");

  await page.getByTestId("error").getByRole("button", { name: "Dismiss" }).click();
  await saveSettings(page, async (d) => {
    await d.getByTestId("max-tokens-per-plan").fill("0");
    await d.getByTestId("price-input").fill("0");
    await d.getByTestId("price-output").fill("0");
  });
  await page.locator('[data-testid="estimate"][data-state="ok"]').filter({ hasText: "set prices" }).waitFor();
}

/** twoPhase: Plan only, then Write the changes (mode "apply") for the approved plan; the
 * written plan carries a JSON file that still does not parse after the one correction
 * request, and the window flags it. Nothing in the project is written. */
async function twoPhase(page, project, step, shot) {
  const before = projectFiles(project);
  await page.getByTestId("plan-only").check();
  await page.getByTestId("fix").click();
  await page.getByTestId("summary").filter({ hasText: "approach only" }).waitFor();
  assert.equal(await page.getByTestId("change-row").count(), 0, "a plan-only plan has no changes");
  const offer = page.getByTestId("write-changes-offer");
  assert.match(await offer.innerText(), /You asked for the plan only/);
  const approved = sealedPlans(project).find((p) => p.plan.summary.startsWith("approach only"));
  assert.equal(approved.input.plan_only, true);
  await page.getByTestId("plan-only").uncheck();
  step("Plan only: the approach without changes, Write the changes offered");

  await page.getByTestId("write-changes").click();
  await page.getByTestId("summary").filter({ hasText: "guard b == 0 as approved" }).waitFor();
  assert.match(await page.getByTestId("approved-plan").innerText(), new RegExp(approved.id));
  assert.equal(await page.getByTestId("change-row").count(), 2);
  const flagged = page.getByTestId("syntax-issues");
  assert.match(await flagged.innerText(), /settings\.json: line 3, column 1: invalid character '\}'/);
  assert.doesNotMatch(await flagged.innerText(), /calc\.py/);
  assert.equal(await offer.count(), 0, "written changes are not offered again");
  const written = sealedPlans(project).find((p) => p.approved_plan === approved.id);
  assert.equal(written.plan.mode, "apply");
  assert.equal(await page.getByTestId("plan-mode").textContent(), "mode: apply");
  assert.deepEqual(await page.getByTestId("plan-rollback").locator("li").allInnerTexts(), ["git checkout calc.py; rm settings.json"]);
  assert.equal(written.calls.length, 2, "one correction request for the syntax error");
  assert.match(written.changes.find((c) => c.path === "settings.json").syntax_issues[0], /^line 3, column 1:/);
  assert.deepEqual(projectFiles(project), before, "writing the changes changed the project");
  step("Write the changes: mode apply shown with its rollback list and the approved plan linked; a JSON syntax error left after one correction is flagged; nothing written");
  await page.getByTestId("syntax-issues").scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot.replace(/\.png$/, "-write-changes.png"), fullPage: false });
}

/** reviewHunks: per-hunk review and an edit by hand. One hunk of two in stats.py is
 * rejected with the keyboard, calc.py's proposal is rewritten in the editor, and what
 * lands on disk is exactly the accepted hunk and the hand-written text; Fix again
 * tells the model both (read from the requests the fake provider recorded). */
async function reviewHunks(page, project, step, shot) {
  const requests = process.env.E2E_REQUESTS;
  assert.ok(requests, "E2E_REQUESTS (the fake provider's -record folder) is not set");
  const line = (n, s) => s ?? (n === 1 ? "def mean(xs):\n" : n === 2 ? "    return sum(xs) / len(xs)\n" : n === 18 ? "def spread(xs):\n" : n === 19 ? "    return max(xs) - min(xs)\n" : n === 20 ? "VERSION = 1\n" : `# note ${n}\n`);
  const stats = (l2, l19) => Array.from({ length: 20 }, (_, i) => line(i + 1, i + 1 === 2 ? l2 : i + 1 === 19 ? l19 : undefined)).join("");
  writeFileSync(join(project, "stats.py"), stats());
  await page.getByTestId("problem").fill(`Traceback (most recent call last):
  File "stats.py", line 19, in spread
    return max(xs) - min(xs)
  File "stats.py", line 2, in mean
    return sum(xs) / len(xs)
  File "calc.py", line 2, in divide
    return a / b
ZeroDivisionError: division by zero`);
  await page.getByTestId("fix").click();
  await page.getByTestId("summary").filter({ hasText: "review: guard mean, spread and divide" }).waitFor();
  const hunks = page.locator('[data-testid="hunk"][data-path="stats.py"]');
  assert.equal(await hunks.count(), 2, "stats.py's change is shown as two hunks");
  assert.match(await page.getByTestId("review-keys").innerText(), /j\/k next\/previous hunk · a accept · r reject/);

  // The verdict says what it is about: the plan as proposed, until a hunk is rejected.
  const badge = page.getByTestId("verify-badge");
  const verdict = async (about, stale) => {
    await page.locator(`[data-testid="verify-badge"][data-about="${about}"][data-stale="${stale}"]`).waitFor({ timeout: 60000 });
    assert.equal(await page.getByTestId("verdict-stale").count(), stale ? 1 : 0, await badge.innerText());
    return badge.innerText();
  };
  await page.getByTestId("verify").click();
  assert.equal(await verdict("proposed", false), "Verified — 1 check passes · about the plan as proposed");

  // Keyboard: j focuses the first hunk, r rejects it; the mouse rejects and re-accepts the second.
  await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
  await page.keyboard.press("j");
  await page.locator('[data-testid="hunk"][data-path="stats.py"][data-n="1"].focused').waitFor();
  await page.keyboard.press("r");
  await page.locator('[data-testid="hunk"][data-path="stats.py"][data-n="1"][data-state="rejected"]').waitFor();
  const second = hunks.nth(1);
  await second.getByTestId("hunk-reject").click();
  await page.locator('[data-testid="hunk"][data-path="stats.py"][data-n="2"][data-state="rejected"]').waitFor();
  await second.getByTestId("hunk-accept").click();
  await page.locator('[data-testid="hunk"][data-path="stats.py"][data-n="2"][data-state="accepted"]').waitFor();
  const preview = page.locator('[data-testid="selection-preview"][data-path="stats.py"]');
  await preview.locator("summary").click();
  await preview.getByTestId("diff").waitFor();
  const previewText = await preview.innerText();
  assert.match(previewText, /if xs else 0/);
  assert.doesNotMatch(previewText, /if xs else 0\.0/, "the rejected hunk is not in the preview");
  step("rejected one hunk of two with the keyboard; the recomputed preview holds only the accepted hunk");
  assert.match(await verdict("proposed", true), /about the plan as proposed$/);
  assert.match(await page.getByTestId("verdict-stale").innerText(), /stale: your choices changed since this verdict — verify again/);
  await page.getByTestId("verify").click();
  assert.equal(await verdict("selection", false), "Verified — 1 check passes · about your selection");
  step("the verdict about the plan as proposed turned stale when a hunk was rejected; verified again, it is about the selection");

  // Edit calc.py's proposal by hand in the editor.
  const mine = "def divide(a, b):\n    return a / b if b else None  # by hand\n";
  await page.locator('[data-testid="change-row"][data-path="calc.py"] [data-testid="edit-file"]').click();
  const editor = page.getByTestId("proposal-editor");
  await editor.locator(".cm-merge-b .cm-content").waitFor();
  assert.match(await editor.locator(".cm-merge-a .cm-content").innerText(), /return a \/ b/);
  await editor.locator(".cm-merge-b .cm-content").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(mine);
  await page.screenshot({ path: shot.replace(/\.png$/, "-editor.png"), fullPage: false });
  await editor.getByTestId("editor-save").click();
  await editor.waitFor({ state: "detached" });
  await page.locator('[data-testid="change-row"][data-path="calc.py"] [data-testid="edited-badge"]').waitFor();
  assert.match(await page.locator('[data-testid="selection-preview"][data-path="calc.py"]').innerText(), /if b else None/);
  step("edited calc.py's proposal in the merge view; the saved text was checked and previewed");
  await verdict("selection", true);
  await page.getByTestId("verify").click();
  // Fresh again: the Go side recorded the SHA-256 of the hand-written text the window holds.
  assert.equal(await verdict("selection", false), "Verified — 1 check passes · about your selection");
  step("the hand edit made the verdict stale; verified again, it covers the edited text");
  await page.screenshot({ path: shot.replace(/\.png$/, "-review.png"), fullPage: false });

  assert.equal(await page.getByTestId("apply").innerText(), "Apply 2 files", "Apply says what it counts");
  await page.getByTestId("apply").click();
  await page.getByTestId("apply-result").filter({ hasText: "stats.py" }).waitFor();
  assert.equal(readFileSync(join(project, "stats.py"), "utf8"), stats(undefined, "    return max(xs) - min(xs) if xs else 0\n"), "exactly the accepted hunk is applied");
  assert.equal(readFileSync(join(project, "calc.py"), "utf8"), mine, "the hand-written text is applied");
  const plansDir = join(project, ".fixplan", "plans");
  const records = readdirSync(plansDir).map((f) => JSON.parse(readFileSync(join(plansDir, f), "utf8")).body);
  const applied = records.find((p) => p.plan.summary === "review: guard mean, spread and divide");
  assert.equal(applied.state, "applied");
  assert.deepEqual(applied.review.files.find((f) => f.path === "stats.py").rejected, [1]);
  assert.equal(applied.review.files.find((f) => f.path === "calc.py").edited, true);
  // The applied plan shows what was chosen, read-only.
  await page.locator('[data-testid="hunk"][data-path="stats.py"][data-n="1"][data-state="rejected"]').waitFor();
  assert.equal(await page.getByTestId("hunk-reject").count(), 0, "an applied plan offers no Reject");
  await page.locator('[data-testid="recorded-edit"][data-path="calc.py"]').waitFor();
  // The hand edit's diff is titled by its file: nothing was renamed.
  const editHead = page.locator('[data-testid="recorded-edit"][data-path="calc.py"] > [data-testid="diff"] .d2h-file-header');
  assert.equal(await editHead.locator(".d2h-file-name").innerText(), "calc.py");
  assert.doesNotMatch(await editHead.innerText(), /RENAMED|proposed|operator/i);
  assert.equal(await editHead.locator(".d2h-moved").count(), 0);
  step("applied: stats.py got only the accepted hunk, calc.py the hand-written text; the record keeps the review and the view shows it");

  const seen = new Set(readdirSync(requests));
  await page.getByTestId("replan-reviewed").click();
  await page.getByTestId("summary").filter({ hasText: "after your review" }).waitFor();
  // The fake provider writes each request down shortly after it arrives.
  const fresh = () => readdirSync(requests).filter((f) => !seen.has(f) && /^\d+\.json$/.test(f));
  for (let i = 0; i < 100 && fresh().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  const sent = fresh().map((f) => JSON.parse(readFileSync(join(requests, f), "utf8")).messages.map((m) => m.content).join("\n"));
  assert.equal(sent.length, 1, "one request for the re-plan");
  for (const want of [
    "OPERATOR REVIEW OF THE EARLIER PLAN",
    "stats.py: the operator rejected this hunk (1 of 2)",
    "+    return sum(xs) / len(xs) if xs else 0.0",
    "calc.py: the operator changed your proposed content to their own version",
    "+    return a / b if b else None  # by hand",
  ]) {
    assert.ok(sent[0].includes(want), `the re-plan request lacks ${JSON.stringify(want)}`);
  }
  step("Fix again: the recorded request describes the rejected hunk and the hand edit");
}

/** jumpToCode: Settings' "Open files with" is set to a fake editor (a script, its path
 * with a blank, that writes the argument it gets); a diff's file header and a stack frame
 * in Context sent open their file at their line, exactly; a command that cannot start
 * shows an error toast that says which. */
async function jumpToCode(page, project, step, shot) {
  const dir = mkdtempSync(join(tmpdir(), "fixplan-editor-"));
  const out = join(dir, "opened");
  const editor = join(dir, "fake editor");
  writeFileSync(editor, `#!/bin/sh\nprintf '%s' "$1" > '${out}.tmp' && mv '${out}.tmp' '${out}'\n`, { mode: 0o755 });
  const real = realpathSync(project);
  const opened = async () => {
    for (let i = 0; i < 200; i++) {
      if (existsSync(out)) {
        const got = readFileSync(out, "utf8");
        rmSync(out);
        return got;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the fake editor was never started");
  };
  const openWith = async (command) => {
    await page.getByTestId("settings").click();
    const dialog = page.getByTestId("settings-dialog");
    await dialog.getByTestId("open-with").fill(command);
    assert.match(await dialog.getByTestId("open-with-hint").innerText(), /\{file\} is the file's full path and \{line\} the line/);
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("Saved.").waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
  };
  const toast = page.getByTestId("toast");
  const dismiss = async () => {
    await toast.getByRole("button", { name: "Dismiss" }).click();
    await toast.waitFor({ state: "detached" });
  };

  await openWith(`"${editor}" {file}:{line}`);
  const header = page.locator('[data-testid="change-row"][data-path="calc.py"] .file-link');
  assert.equal(await header.getAttribute("title"), "Open calc.py at line 2 in your editor");
  await header.click();
  assert.equal(await opened(), `${real}/calc.py:2`);
  await toast.filter({ hasText: "Opened calc.py at line 2 with fake editor (Settings)." }).waitFor();
  assert.equal(await toast.getAttribute("data-kind"), "note");
  assert.equal(await page.locator('[data-testid="change-row"][data-path="calc.py"]').evaluate((d) => d.open), true, "the click folded the change");
  await dismiss();
  step("Open files with set in Settings; the diff's file header opened calc.py:2 in the (fake) editor");

  const sent = page.getByTestId("context-sent");
  await sent.locator(":scope > summary").click();
  const frames = page.locator('[data-testid="context-section"][data-title="Stack frames"]');
  await frames.locator(":scope > summary").click();
  await frames.getByRole("button", { name: "Open test_calc.py at line 5 in your editor" }).click();
  assert.equal(await opened(), `${real}/test_calc.py:5`);
  await toast.filter({ hasText: "Opened test_calc.py at line 5" }).waitFor();
  await frames.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot.replace(/\.png$/, "-jump.png"), fullPage: false });
  await dismiss();
  step("a stack frame in Context sent opened test_calc.py:5 in the editor");

  await openWith(join(dir, "no-such-editor") + " {file}");
  await header.click();
  await toast.filter({ hasText: "ERR_CONFIG" }).waitFor();
  assert.equal(await toast.getAttribute("data-kind"), "error");
  assert.match(await toast.innerText(), /no-such-editor set in Settings → Open files with is not found/);
  await page.waitForTimeout(300);
  assert.equal(existsSync(out), false, "an editor ran");
  await dismiss();
  await openWith("");
  await frames.locator(":scope > summary").click();
  await sent.locator(":scope > summary").click();
  rmSync(dir, { recursive: true, force: true });
  step("an editor that cannot be started: an error toast says which and what to set");
}

const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "fixplan-e2e-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
page.setDefaultTimeout(20000);
const step = (s) => console.log(`e2e: ${s}`);
try {
  await page.goto(url);
  await page.waitForFunction(() => !!window.go?.app?.App);
  await page.getByTestId("project-root").filter({ hasText: project }).waitFor();
  step("project open at start-up");

  const original = readFileSync(join(project, "calc.py"), "utf8");
  await page.getByTestId("problem").fill(traceback);
  // The cost before you pay it: once typing pauses, the Go side works out what Fix would
  // cost (the base context gathered, the first request built, nothing sent) and the
  // window shows it next to Fix.
  const estimate = page.locator('[data-testid="estimate"][data-state="ok"]');
  await estimate.waitFor();
  assert.match(await estimate.innerText(), /^up to ~[\d,]+ tokens, ~[\d,]+ with 2 context rounds · set prices in Settings to see a cost$/);
  assert.equal(await estimate.evaluate((el) => el.closest(".estimate-wrap")?.nextElementSibling?.getAttribute("data-testid")), "fix", "the estimate is next to Fix");
  assert.match(await estimate.getAttribute("title"), /^First request: [\d,]+ tokens in \([\d,]+ of messages, [\d,]+ of the plan's JSON schema\) and up to 8,192 out/);
  assert.match(await estimate.getAttribute("title"), /Every request the loop can make \(12: .*\): up to [\d,]+/);
  assert.deepEqual(requestFiles(), [], "the estimate sent a request");
  step("the estimate of what Fix would cost is next to it before anything is sent: tokens, the worst case with both context rounds, no prices yet");
  await page.getByTestId("problem").press("Control+Enter");
  await page.getByTestId("summary").filter({ hasText: "does not guard against b == 0" }).waitFor();
  assert.equal(await page.getByTestId("progress").innerText(), "Plan ready.");
  const rows = page.getByTestId("change-row");
  assert.equal(await rows.count(), 2);
  assert.match(await page.getByTestId("diff").first().innerText(), /if b == 0/);
  assert.equal(readFileSync(join(project, "calc.py"), "utf8"), original, "planning must not change files");
  assert.match(await page.getByTestId("calls").textContent(), /1 model request to fake-model \(json_schema\): [\d,]+ tokens in/);
  step("plan shown with 2 changes and a diff; nothing written");
  // Everything the model answered is on screen: the mode, what to expect, no empty rollback.
  assert.equal(await page.getByTestId("plan-mode").textContent(), "mode: fix-plan");
  assert.deepEqual(await page.getByTestId("plan-expect").locator("li").allInnerTexts(), ["prints checked"]);
  assert.equal(await page.getByTestId("plan-rollback").count(), 0, "an empty rollback list is not shown");
  step("the plan's mode and what to expect after the fix are shown");
  // Added and removed lines keep their colour under the syntax colours, light and dark.
  const firstDiff = page.getByTestId("diff").first();
  const addedBg = () => firstDiff.locator(".d2h-ins .d2h-code-line-ctn").first().evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.match(await addedBg(), /rgba\(0, 0, 0, 0\)|transparent/, "the syntax theme paints over the added line's colour");
  await firstDiff.screenshot({ path: shot.replace(/\.png$/, "-diff.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  assert.match(await addedBg(), /rgba\(0, 0, 0, 0\)|transparent/, "the dark syntax theme paints over the added line's colour");
  await firstDiff.screenshot({ path: shot.replace(/\.png$/, "-diff-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });
  const sentHead = await page.locator('[data-testid="context-sent"] > summary').textContent();
  assert.match(sentHead, /— the sections are ~[\d,]+ tokens \(estimated\)/);
  assert.ok(!sentHead.includes("))"), sentHead);
  assert.ok((await page.getByTestId("section-tokens").count()) > 0, "each section of the context says what it cost");
  step("Context sent says what the context cost in (estimated) tokens, section by section");

  await jumpToCode(page, project, step, shot);

  await page.locator('[data-testid="change-row"][data-path="notes.md"] [data-testid="change-check"]').uncheck();
  assert.equal(await page.getByTestId("apply").innerText(), "Apply 1 file + 1 memory entry", "Apply says what it counts");
  await page.getByTestId("apply").click();
  const result = page.getByTestId("apply-result");
  await result.waitFor();
  const text = await result.innerText();
  assert.match(text, /calc\.py/);
  assert.doesNotMatch(text, /notes\.md/);
  assert.match(readFileSync(join(project, "calc.py"), "utf8"), /if b == 0:/);
  assert.equal(existsSync(join(project, "notes.md")), false, "an unticked file was written");
  assert.match(readFileSync(join(project, ".fixplan", "project.json"), "utf8"), /python -m pytest -q/);
  step("applied exactly the ticked file and the memory entry");

  await page.getByTestId("run-command").click();
  await page.getByTestId("command-output").filter({ hasText: "checked" }).waitFor();
  await page.getByTestId("command-output").filter({ hasText: "exit 0" }).waitFor();
  step("check ran after its click and streamed its output");

  await page.getByTestId("undo").click();
  await page.getByTestId("apply-result").filter({ hasText: "Undone" }).waitFor();
  assert.equal(readFileSync(join(project, "calc.py"), "utf8"), original, "undo must restore the exact bytes");
  step("undo restored the exact bytes");

  await page.getByTestId("fix").click();
  await page.locator(".badge.state-draft").waitFor();
  writeFileSync(join(project, "calc.py"), original + "# edited by hand\n");
  await page.getByTestId("apply").click();
  const err = page.getByTestId("error");
  await err.waitFor();
  const errText = await err.innerText();
  assert.match(errText, /ERR_BASE_MISMATCH/);
  assert.match(errText, /re-plan/);
  assert.equal(readFileSync(join(project, "calc.py"), "utf8"), original + "# edited by hand\n");
  assert.equal(existsSync(join(project, "notes.md")), false);
  step("a file changed since the preview is refused with a clear error, nothing written");

  // Cancel a slow plan: no error, the Fix button is usable again.
  await page.getByTestId("error-replan").click();
  await page.getByTestId("cancel").click();
  await page.getByTestId("cancel").waitFor({ state: "detached" });
  assert.equal(await page.getByTestId("error").count(), 0, "cancelling must not show an error");
  assert.equal(await page.getByTestId("fix").isEnabled(), true);
  step("re-plan offered by the stale-preview error started; cancelling it shows no error");

  // Questions: answer inline and re-plan with the answer.
  await page.getByTestId("fix").click();
  await page.getByTestId("summary").filter({ hasText: "need to know the Python version" }).waitFor();
  await page.getByTestId("answer").fill("3.8 and newer");
  await page.getByTestId("replan").click();
  await page.getByTestId("summary").filter({ hasText: "Python 3.8 compatible" }).waitFor();
  // Plan files are sealed envelopes {format, mac, body}; the record is the body.
  const plans = readdirSync(join(project, ".fixplan", "plans"))
    .map((f) => JSON.parse(readFileSync(join(project, ".fixplan", "plans", f), "utf8")))
    .map((env) => {
      assert.equal(env.format, "fixplan-plan/1", "a plan file is not sealed");
      return env.body;
    });
  const replanned = plans.find((p) => p.plan.summary.includes("3.8 compatible"));
  assert.deepEqual(replanned.input.answers, ["3.8 and newer"]);
  assert.ok(plans.some((p) => p.id === replanned.input.previous && p.plan.questions.length === 1));
  step("answered a question inline and re-planned with the answer");

  // Verify a plan in a scratch copy: tick the plan's check, add one, Verify.
  await page.getByTestId("fix").click();
  await page.getByTestId("summary").filter({ hasText: "return None for b == 0 (to verify)" }).waitFor();
  assert.equal(await page.getByTestId("verify-badge").count(), 0, "a plan made without verification has no verdict");
  const panel = page.getByTestId("verify-panel");
  assert.match(await panel.getByTestId("verify-note").innerText(), /scratch copy.*never touched/s);
  const derived = panel.getByTestId("verify-check").filter({ hasText: "derived from the failing test" });
  assert.equal(await derived.count(), 1, "the failing test's focused command is offered");
  assert.equal(await derived.getByTestId("verify-check-box").isChecked(), false, "an unapproved check starts unticked");
  const fromPlan = panel.getByTestId("verify-check").filter({ hasText: CHECK_FIX });
  assert.match(await fromPlan.innerText(), /proposed by the model/);
  assert.equal(await fromPlan.getByTestId("verify-check-box").isChecked(), false);
  assert.equal(await panel.getByTestId("verify").isDisabled(), true, "Verify with nothing to run");
  await fromPlan.getByTestId("verify-check-box").check();
  await panel.getByTestId("add-check").fill(CHECK_KEEP);
  await panel.getByTestId("add-check").press("Enter");
  assert.match(await panel.getByTestId("verify-check").filter({ hasText: CHECK_KEEP }).innerText(), /added by you/);
  const before = projectFiles(project);
  await panel.getByTestId("verify").click();
  const badge = page.getByTestId("verify-badge");
  await badge.waitFor({ timeout: 60000 });
  assert.equal(await badge.getAttribute("data-state"), "verified", await badge.innerText());
  assert.equal(await badge.innerText(), "Verified — 2 checks pass · about the plan as proposed");
  assert.deepEqual(await page.getByTestId("check-result").evaluateAll((rs) => rs.map((r) => r.getAttribute("data-outcome"))), ["passed", "passed"]);
  assert.deepEqual(projectFiles(project), before, "verification changed the project");
  assert.equal(await page.locator(".badge.state-draft").count(), 1, "the plan is still a draft");
  const approvedNow = await panel.getByTestId("verify-check").evaluateAll((rs) => rs.filter((r) => r.dataset.approved === "true").map((r) => r.dataset.command));
  assert.deepEqual(approvedNow.sort(), [CHECK_FIX, CHECK_KEEP].sort(), "the ticked checks are approved now");
  step("verified a plan in a scratch copy with a ticked and an added check: Verified — 2 checks pass; the project is unchanged");
  await page.getByTestId("verification").scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot.replace(/\.png$/, "-verified.png"), fullPage: false });

  // Settings: verify before review from now on, one repair attempt; the approvals are listed.
  await page.getByTestId("settings").click();
  const dialog = page.getByTestId("settings-dialog");
  await dialog.getByTestId("approved-check").first().waitFor();
  assert.deepEqual(await dialog.getByTestId("approved-check").evaluateAll((rs) => rs.map((r) => r.dataset.command)), [CHECK_FIX, CHECK_KEEP]);
  await dialog.getByRole("switch", { name: "Verify before review" }).check();
  await dialog.getByTestId("verify-attempts").fill("1");
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByText("Saved.").waitFor();
  assert.equal(await dialog.getByRole("switch", { name: "Verify before review" }).isChecked(), true, "the switch was not saved");
  assert.equal(await dialog.getByTestId("verify-attempts").inputValue(), "1");
  await page.screenshot({ path: shot.replace(/\.png$/, "-settings.png"), fullPage: false });
  // The Edit format choice is never cut off: the widest option fits the select; the hint says what it does.
  const format = dialog.getByTestId("edit-format");
  const fit = await format.evaluate((el) => {
    const st = getComputedStyle(el);
    const g = document.createElement("canvas").getContext("2d");
    g.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    return { widest: Math.max(...Array.from(el.options, (o) => g.measureText(o.text).width)), room: el.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 24 };
  });
  assert.ok(fit.widest <= fit.room, `the widest edit format (${fit.widest}px) is cut off in ${fit.room}px`);
  assert.match(await dialog.getByTestId("edit-format-hint").innerText(), /^Whole small files, search\/replace edits in large ones/);
  await format.screenshot({ path: shot.replace(/\.png$/, "-edit-format.png") });
  await dialog.getByRole("button", { name: "Close" }).click();
  assert.equal(await page.getByTestId("verify-run").isChecked(), true, "the per-run choice starts from the setting");
  step("Settings lists both approvals; Verify before review switched on with one repair attempt");

  // A plan that breaks a check goes back to the model once; the second try breaks it too.
  const before2 = projectFiles(project);
  await page.getByTestId("fix").click();
  await page.getByTestId("summary").filter({ hasText: "second try" }).waitFor({ timeout: 90000 });
  assert.equal(await badge.getAttribute("data-state"), "failed", await badge.innerText());
  assert.equal(await badge.innerText(), "Failed — a check fails with the change, and did not before · about the plan as proposed");
  const checkRows = page.getByTestId("check-result");
  assert.deepEqual(await checkRows.evaluateAll((rs) => rs.map((r) => r.getAttribute("data-outcome"))), ["passed", "failed"]);
  const failedRow = checkRows.filter({ hasText: CHECK_KEEP });
  assert.match(await failedRow.getByTestId("check-facts").innerText(), /^exit 1 · .* · before the change: exit 0$/);
  await failedRow.locator("summary").click();
  assert.match(await failedRow.getByTestId("check-output").innerText(), /AssertionError/);
  const attempts = page.getByTestId("attempts");
  assert.equal(await attempts.locator(":scope > summary").innerText(), "Earlier attempts (1)");
  await attempts.locator(":scope > summary").click();
  const attempt = attempts.getByTestId("attempt");
  assert.equal(await attempt.getAttribute("data-state"), "failed");
  assert.match(await attempt.innerText(), /floor division[\s\S]*a check fails with the change/);
  assert.equal(await page.getByTestId("progress").innerText(), "Plan ready.");
  assert.deepEqual(projectFiles(project), before2, "verification before review changed the project");
  step("verified before review: a failing plan went back to the model once; Failed with its check output and the earlier attempt; the project is unchanged");
  await page.getByTestId("verification").scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot.replace(/\.png$/, "-verify-failed.png"), fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: shot.replace(/\.png$/, "-verify-failed-dark.png"), fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  // Revoke one approval; it is gone from Settings. Verification is switched off again.
  await page.getByTestId("settings").click();
  await dialog.getByRole("button", { name: `Revoke ${CHECK_KEEP}` }).click();
  await dialog.getByTestId("approved-check").filter({ hasText: CHECK_KEEP }).waitFor({ state: "detached" });
  assert.deepEqual(await dialog.getByTestId("approved-check").evaluateAll((rs) => rs.map((r) => r.dataset.command)), [CHECK_FIX]);
  await dialog.getByRole("switch", { name: "Verify before review" }).uncheck();
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByText("Saved.").waitFor();
  await dialog.getByRole("button", { name: "Close" }).click();
  assert.equal(await page.getByTestId("verify-run").isChecked(), false);
  const stillOffered = page.getByTestId("verify-panel").getByTestId("verify-check").filter({ hasText: CHECK_KEEP });
  await stillOffered.waitFor({ state: "detached" }); // a revoked check the plan does not propose is no longer offered
  step("revoked an approval in Settings");

  // Cancel a slow verification: its check is stopped, the plan says so, nothing is left running.
  const SLOW = "sleep 60";
  await page.getByTestId("verify-panel").getByTestId("add-check").fill(SLOW);
  await page.getByTestId("verify-panel").getByTestId("add-check-button").click();
  const started = Date.now();
  await page.getByTestId("verify").click();
  await page.getByTestId("verify-progress").filter({ hasText: SLOW }).waitFor();
  assert.equal(await page.getByTestId("fix").isDisabled(), true, "Fix while verifying");
  await page.getByTestId("cancel").click(); // the Problem panel's Cancel, as for planning
  await page.getByTestId("verify-progress").waitFor({ state: "detached" });
  assert.ok(Date.now() - started < 30000, "cancel did not stop the check");
  assert.equal(await page.getByTestId("error").count(), 0, "cancelling must not show an error");
  assert.equal(await badge.getAttribute("data-state"), "not_verified", await badge.innerText());
  assert.equal(await badge.innerText(), "Not verified — verification was cancelled · about the plan as proposed");
  assert.equal(await page.getByTestId("fix").isEnabled(), true);
  await page.getByTestId("settings").click();
  await dialog.getByRole("button", { name: `Revoke ${SLOW}` }).click();
  await dialog.getByTestId("approved-check").filter({ hasText: SLOW }).waitFor({ state: "detached" });
  await dialog.getByRole("button", { name: "Close" }).click();
  step("cancelled a slow verification: Not verified — verification was cancelled");

  await twoPhase(page, project, step, shot);

  await reviewHunks(page, project, step, shot);

  await ceiling(page, step, shot);

  await page.getByTestId("history").click();
  await page.getByTestId("history-drawer").filter({ hasText: "undone" }).waitFor();
  step("history lists the undone and the draft plan");
  await page.screenshot({ path: shot, fullPage: false });
  await page.getByTestId("history-drawer").getByText("Close").click();
  await page.emulateMedia({ colorScheme: "dark" });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, "rgb(21, 24, 30)", "the dark theme follows the OS setting");
  await page.screenshot({ path: shot.replace(/\.png$/, "-dark.png"), fullPage: false });
  step("follows the OS dark theme");
  console.log("e2e: PASS");
} catch (e) {
  await page.screenshot({ path: shot.replace(/\.png$/, "-failure.png") }).catch(() => {});
  console.error(e);
  process.exitCode = 1;
} finally {
  await ctx.close();
}
