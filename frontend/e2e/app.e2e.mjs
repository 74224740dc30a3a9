// End-to-end test of the real app: the dev-tagged Go binary serves the frontend
// with its real bindings; Debian's Chromium drives it like a user would.
// Usage: node e2e/app.e2e.mjs URL PROJECT_DIR SCREENSHOT
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
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
  await page.getByTestId("problem").press("Control+Enter");
  await page.getByTestId("summary").filter({ hasText: "does not guard against b == 0" }).waitFor();
  assert.equal(await page.getByTestId("progress").innerText(), "Plan ready.");
  const rows = page.getByTestId("change-row");
  assert.equal(await rows.count(), 2);
  assert.match(await page.getByTestId("diff").first().innerText(), /if b == 0/);
  assert.equal(readFileSync(join(project, "calc.py"), "utf8"), original, "planning must not change files");
  assert.match(await page.getByTestId("calls").textContent(), /1 model request to fake-model \(json_schema\): [\d,]+ tokens in/);
  step("plan shown with 2 changes and a diff; nothing written");

  await page.locator('[data-testid="change-row"][data-path="notes.md"] [data-testid="change-check"]').uncheck();
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
