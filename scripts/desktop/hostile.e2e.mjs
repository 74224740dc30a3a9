// End-to-end test of a hostile project in the real app: a cloned repository that
// ships its own .fixplan/ state — a journal that would "roll back" files outside the
// project, and a plan the user never made. Opening it must obey none of it: the
// journal is set aside (quarantined) and reported, nothing outside changes, the
// Journals drawer shows it and discards it, and the shipped plan is shown as
// foreign with Apply and Run off (and refused by the backend too).
// Usage (after e2e/app.e2e.mjs, against the same running app):
//   node scripts/desktop/hostile.e2e.mjs URL MAIN_PROJECT HOSTILE_PROJECT SCREENSHOT TX_BARE TX_FORGED
// TX_BARE is a journal shipped as plain JSON, TX_FORGED one in an envelope with a wrong seal.
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import assert from "node:assert/strict";

// playwright-core is a dev dependency of the frontend.
const { chromium } = createRequire(new URL("../../frontend/package.json", import.meta.url))("playwright-core");

const [url, mainProject, hostile, shot, txBare, txForged] = process.argv.slice(2);
const FOREIGN = "99991231-235959.999999-ffffff";
const outside = join(dirname(hostile), "outside.txt");
const outsideCreated = join(dirname(hostile), "outside-created.txt");
const inside = join(hostile, "keep.txt");
const snapshot = (p) => (existsSync(p) ? { bytes: readFileSync(p, "utf8"), mtime: statSync(p).mtimeMs } : null);
const victims = () => [outside, outsideCreated, inside].map(snapshot);

const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "fixplan-e2e-hostile-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
page.setDefaultTimeout(20000);
const step = (s) => console.log(`e2e hostile: ${s}`);
try {
  const before = victims();
  assert.ok(before.every((v) => v !== null), "the victim files must exist before the project is opened");
  for (const tx of [txBare, txForged]) assert.ok(existsSync(join(hostile, ".fixplan", "tx", tx, "journal.json")));

  await page.goto(url);
  await page.waitForFunction(() => !!window.go?.app?.App);
  await page.getByTestId("project-root").filter({ hasText: mainProject }).waitFor();
  await page.getByLabel("Recent projects").selectOption(hostile);
  await page.getByTestId("project-root").filter({ hasText: hostile }).waitFor();
  step("opened the hostile project from the recent list");

  const notice = page.getByTestId("recovery");
  await notice.waitFor();
  assert.match(await notice.innerText(), /^Recovery/);
  const lines = await notice.getByTestId("recovery-line").allInnerTexts();
  assert.equal(lines.length, 2, `one line per set-aside journal: ${JSON.stringify(lines)}`);
  const line = (tx) => lines.find((l) => l.startsWith(`.fixplan/tx/${tx} was set aside in .fixplan/quarantine/${tx}:`));
  // A bare journal is malformed or unsealed, a forged one foreign: either way it is not the user's.
  const notTheirs = /not written by your fixplan|not a fixplan state file/;
  assert.match(line(txBare) ?? "", notTheirs);
  assert.match(line(txForged) ?? "", /not written by your fixplan.*not recovered/);
  assert.equal(await page.getByTestId("progress").count(), 0, "recovery notices belong in the Recovery notice, not the progress line");
  assert.deepEqual(victims(), before, "a shipped journal changed files");
  for (const tx of [txBare, txForged]) {
    assert.equal(existsSync(join(hostile, ".fixplan", "tx", tx)), false, `the shipped journal ${tx} was left in .fixplan/tx`);
    assert.ok(existsSync(join(hostile, ".fixplan", "quarantine", tx, "journal.json")), `the shipped journal ${tx} is not in .fixplan/quarantine`);
  }
  step("both shipped journals were set aside and reported, one line each; nothing inside or outside the project changed");

  await page.getByTestId("recovery-journals").click();
  const drawer = page.getByTestId("journals-drawer");
  await drawer.waitFor();
  const rows = drawer.getByTestId("journal");
  assert.equal(await rows.count(), 2);
  for (const [tx, why] of [[txBare, notTheirs], [txForged, /not written by your fixplan/]]) {
    const row = drawer.locator(`[data-testid="journal"][data-id="${tx}"]`);
    assert.equal(await row.getAttribute("data-state"), "quarantined");
    assert.equal(await row.locator(".badge.state-quarantined").textContent(), "quarantined");
    assert.equal(await row.getByTestId("journal-where").innerText(), `.fixplan/quarantine/${tx}`);
    assert.match(await row.getByTestId("journal-reason").innerText(), why);
  }
  step("Journals lists both quarantined folders with where they are and why");
  await page.screenshot({ path: shot.replace(/\.png$/, "-journals.png"), fullPage: false });

  // One with the mouse, one from the keyboard.
  await drawer.getByRole("button", { name: `Discard ${txBare}` }).click();
  await drawer.getByRole("button", { name: `Delete ${txBare}` }).click(); // Discard asks first
  await drawer.locator(`[data-testid="journal"][data-id="${txBare}"]`).waitFor({ state: "detached" });
  assert.equal(await rows.count(), 1);
  const second = drawer.getByRole("button", { name: `Discard ${txForged}` });
  await second.focus();
  await page.keyboard.press("Enter");
  // the question takes the focus: Enter confirms
  await drawer.getByRole("button", { name: `Delete ${txForged}` }).waitFor();
  assert.equal(await drawer.getByRole("button", { name: `Delete ${txForged}` }).evaluate((el) => el === document.activeElement), true, "the Delete question does not have the focus");
  await page.keyboard.press("Enter");
  await drawer.getByTestId("journals-empty").waitFor();
  assert.equal(await rows.count(), 0);
  assert.equal(await page.getByTestId("error").count(), 0, "discarding showed an error");
  for (const tx of [txBare, txForged]) assert.equal(existsSync(join(hostile, ".fixplan", "quarantine", tx)), false, `the quarantined folder ${tx} is still there`);
  assert.deepEqual(victims(), before, "discarding a quarantined journal changed files");
  step("Discard (mouse, then keyboard) deleted both and the list is empty");

  await page.keyboard.press("Escape");
  await drawer.waitFor({ state: "detached" });
  await page.getByTestId("history").click();
  const item = page.locator(`[data-testid="history-item"][data-id="${FOREIGN}"]`);
  await item.waitFor();
  assert.equal(await item.getByTestId("foreign-badge").innerText(), "foreign — not made by you");
  step("History shows the shipped plan with the foreign badge");

  await item.click();
  await page.getByTestId("summary").filter({ hasText: "Shipped with the project" }).waitFor();
  assert.equal(await page.getByTestId("apply").isDisabled(), true, "Apply is enabled on a foreign plan");
  assert.equal(await page.getByTestId("run-command").isDisabled(), true, "Run is enabled on a foreign plan");
  assert.match(await page.getByTestId("foreign-note").innerText(), /cannot be applied/);
  assert.equal(await page.getByTestId("apply").getAttribute("aria-describedby"), "foreign-note");
  assert.equal(await page.getByTestId("change-row").count(), 1);
  assert.equal(await page.getByTestId("change-check").isDisabled(), true);
  assert.equal(await page.getByTestId("change-check").isChecked(), false, "a foreign plan's change starts ticked");
  step("the plan view says it cannot be applied; Apply and Run are off");

  // It claims to be verified: the claim is not shown, and it cannot be verified here.
  assert.equal(await page.getByTestId("verify-badge").count(), 0, "a foreign plan's verification is shown as a verdict");
  assert.equal(await page.getByTestId("verification").count(), 0);
  assert.equal(await page.getByTestId("verify").isDisabled(), true, "Verify is enabled on a foreign plan");
  assert.match(await page.getByTestId("verify-disabled-reason").innerText(), /not made by you/);
  assert.equal(await page.getByTestId("verify-check").count(), 0, "a foreign plan's commands are offered for approval");
  step("its claimed verification is not shown; Verify is off and none of its commands is offered");

  // The backend refuses too, whatever the UI does.
  const refused = await page.evaluate(async ([id]) => {
    const App = window.go.app.App;
    const code = async (p) => p.then(() => "ok", (e) => JSON.parse(typeof e === "string" ? e : e.message).code);
    return [
      await code(App.Apply({ plan_id: id, paths: ["keep.txt"], memory_keys: [] })),
      await code(App.RunCommand(id, "touch pwned-by-command")),
      await code(App.VerifyPlan(id, [])),
    ];
  }, [FOREIGN]);
  assert.deepEqual(refused, ["ERR_FOREIGN_STATE", "ERR_FOREIGN_STATE", "ERR_FOREIGN_STATE"]);
  assert.equal(existsSync(join(hostile, "pwned-by-command")), false, "a foreign plan's command ran");
  assert.deepEqual(victims(), before, "a foreign plan changed files");
  step("the backend refuses to apply, run or verify it; nothing changed");

  await page.screenshot({ path: shot, fullPage: false });
  await page.getByTestId("journals").click();
  await page.getByTestId("journals-drawer").getByTestId("journals-empty").waitFor();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: shot.replace(/\.png$/, "-dark.png"), fullPage: false });
  console.log("e2e hostile: PASS");
} catch (e) {
  await page.screenshot({ path: shot.replace(/\.png$/, "-failure.png") }).catch(() => {});
  console.error(e);
  process.exitCode = 1;
} finally {
  await ctx.close();
}
