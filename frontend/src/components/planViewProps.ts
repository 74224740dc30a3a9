import type { ComponentProps } from "react";
import type { PlanRecord } from "../api/types";
import type { PlanView } from "./PlanView";

/** planViewProps are a PlanView's props for a component test: plan, nothing
 * selected, idle, every action a no-op; over replaces any of them. */
export function planViewProps(plan: PlanRecord, over: Partial<ComponentProps<typeof PlanView>> = {}): ComponentProps<typeof PlanView> {
  const none = () => {};
  return {
    plan,
    selected: {},
    memorySelected: {},
    answers: [],
    commands: {},
    busy: false,
    planning: false,
    result: null,
    onToggle: none,
    onAll: none,
    onToggleMemory: none,
    onAnswer: none,
    onReplan: none,
    onApply: none,
    onUndo: none,
    onRun: none,
    onStop: none,
    onFixAgain: none,
    checks: null,
    verifying: false,
    verifyProgress: "",
    onToggleCheck: none,
    onAddCheck: none,
    onRemoveCheck: none,
    onVerify: none,
    onCancelVerify: none,
    ...over,
  };
}
