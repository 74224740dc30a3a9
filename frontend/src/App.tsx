import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import type { Store } from "./state/store";
import { undoableHere } from "./state/slices/apply";
import { stageText } from "./state/progress";
import { Header } from "./components/Header";
import { ErrorAlert } from "./components/ErrorAlert";
import { ProblemPanel } from "./components/ProblemPanel";
import { HistoryDrawer } from "./components/HistoryDrawer";
import { JournalsDrawer } from "./components/JournalsDrawer";
import { RecoveryNotice } from "./components/RecoveryNotice";
import { SettingsDialog } from "./components/SettingsDialog";
import { Toast } from "./components/Toast";

// The plan view and its diff viewer (diff2html, highlight.js) are a chunk of their own,
// so the first paint does not wait for them. It is fetched when a plan is on its way —
// a problem is being typed, or planning, verifying, history — so it is usually there
// before the plan (a busy machine needs a second or more to load it).
const loadPlanView = () => import("./lazyPlan");
const PlanView = lazy(() => loadPlanView().then((m) => ({ default: m.PlanView })));

/** App connects the store to the presentational components. */
export function App({ store }: { store: Store }) {
  const s = useSyncExternalStore(store.subscribe, store.get);
  useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);
  const planComing = s.problem !== "" || s.planning || s.verifying || !!s.history;
  useEffect(() => {
    if (planComing) void loadPlanView();
  }, [planComing]);
  return (
    <div className="app">
      <Header
        project={s.project}
        onOpen={() => store.chooseProject()}
        onRecent={(p) => store.openProject(p)}
        onHistory={() => store.openHistory()}
        onJournals={() => store.openJournals()}
        onSettings={() => store.openSettings()}
      />
      <main>
        {s.project && s.project.recovered.length > 0 && (
          <RecoveryNotice messages={s.project.recovered} onJournals={() => store.openJournals()} onDismiss={store.dismissRecovery} />
        )}
        {!s.project && (
          <div className="empty">
            <p>Open a project folder to start.</p>
            <button className="primary" onClick={() => store.chooseProject()}>
              Open folder…
            </button>
          </div>
        )}
        {s.error && !s.journals && !s.settings && !(s.plan && s.errorAt === "actions") && (
          <ErrorAlert
            error={s.error}
            onDismiss={store.dismissError}
            onReplan={s.plan && ["ERR_BASE_MISMATCH", "ERR_PATCH_APPLY_FAILED"].includes(s.error.code) ? () => store.fix({ previous: s.plan?.id }) : undefined}
          />
        )}
        <ProblemPanel
          problem={s.problem}
          logs={s.logs}
          planning={s.planning || s.verifying}
          progress={stageText(s.progress)}
          disabled={!s.project}
          verify={store.verifyBeforeReview()}
          onVerify={store.setVerifyRun}
          planOnly={s.planOnly}
          onPlanOnly={store.setPlanOnly}
          onProblem={store.setProblem}
          onFix={() => store.fix()}
          onCancel={() => store.cancel()}
          onAttach={() => store.chooseLogs()}
          onRename={store.renameLog}
          onRemove={store.removeLog}
          estimate={s.problem.trim() ? s.estimate : null}
          estimating={s.estimating}
          estimateError={s.estimateError}
        />
        {s.plan && (
          <Suspense fallback={<p className="plan-loading">Loading the plan view…</p>}>
            <PlanView
              plan={s.plan}
              selected={s.selected}
              memorySelected={s.memorySelected}
              answers={s.answers}
              commands={s.commands}
              busy={s.busy}
              planning={s.planning}
              result={s.result}
              onToggle={store.toggleChange}
              onAll={store.setAllChanges}
              onToggleMemory={store.toggleMemory}
              onAnswer={store.setAnswer}
              onReplan={() => store.replan()}
              onApply={() => store.apply()}
              onUndo={() => store.undo()}
              undoHere={undoableHere(s.plan, s.latestApply)}
              onRun={(c) => store.runCommand(c)}
              onStop={() => store.stopCommand()}
              onFixAgain={() => store.fixAgain()}
              checks={s.checks}
              verifying={s.verifying}
              verifyProgress={s.verifying ? stageText(s.progress) : ""}
              onToggleCheck={store.toggleCheck}
              onAddCheck={store.addCheck}
              onRemoveCheck={store.removeAddedCheck}
              onVerify={() => store.verify()}
              onCancelVerify={() => store.cancel()}
              onWriteChanges={() => store.writeChanges()}
              review={s.review}
              reviewActions={store.reviewActions}
              filesChanged={s.changedSince === s.plan.id}
              onReplanReviewed={() => store.fix({ previous: s.plan?.id })}
              approvedSummary={s.plan.approved_plan ? s.summaries[s.plan.approved_plan] : undefined}
              onOpenFile={(at) => store.openInEditor(at.path, at.line)}
              actionError={
                s.error && s.errorAt === "actions" && !s.journals && !s.settings ? (
                  <ErrorAlert
                    error={s.error}
                    focusOnShow
                    onDismiss={store.dismissError}
                    onReplan={["ERR_BASE_MISMATCH", "ERR_PATCH_APPLY_FAILED"].includes(s.error.code) ? () => store.fix({ previous: s.plan?.id }) : undefined}
                  />
                ) : undefined
              }
            />
          </Suspense>
        )}
      </main>
      {s.history && <HistoryDrawer items={s.history} onOpen={(id) => store.loadPlan(id)} onClose={store.closeHistory} />}
      {s.journals && (
        <JournalsDrawer items={s.journals} discarding={s.discarding} planSummary={(id) => s.summaries[id] ?? ""} onDiscard={(id) => store.discardJournal(id)} onClose={store.closeJournals}>
          {s.error && <ErrorAlert error={s.error} onDismiss={store.dismissError} />}
        </JournalsDrawer>
      )}
      {s.toast && <Toast toast={s.toast} onDismiss={store.dismissToast} />}
      {s.settings && (
        <SettingsDialog
          settings={s.settings}
          presets={s.presets}
          connection={s.connection}
          approved={s.approved}
          onSave={(v, k) => store.saveSettings(v, k)}
          onTest={() => store.testConnection()}
          onRevoke={(c) => store.revokeCheck(c)}
          onClose={store.closeSettings}
          onEdit={store.editSettings}
        >
          {s.settingsError && <ErrorAlert error={s.settingsError} onDismiss={store.dismissSettingsError} />}
        </SettingsDialog>
      )}
    </div>
  );
}
