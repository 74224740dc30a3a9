export namespace app {
	
	export class ApplyRequest {
	    plan_id: string;
	    paths: string[];
	    memory_keys: string[];
	    files: apply.FileChoice[];
	
	    static createFrom(source: any = {}) {
	        return new ApplyRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.plan_id = source["plan_id"];
	        this.paths = source["paths"];
	        this.memory_keys = source["memory_keys"];
	        this.files = this.convertValues(source["files"], apply.FileChoice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ApplyResult {
	    transaction: string;
	    plan_id: string;
	    applied: plan.FileChange[];
	    memory: string[];
	    recovered: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ApplyResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.transaction = source["transaction"];
	        this.plan_id = source["plan_id"];
	        this.applied = this.convertValues(source["applied"], plan.FileChange);
	        this.memory = source["memory"];
	        this.recovered = source["recovered"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryItem {
	    id: string;
	    created_at: string;
	    state: string;
	    summary: string;
	    problem: string;
	    files: number;
	    foreign: boolean;
	    plan_only?: boolean;
	    approved_plan?: string;
	
	    static createFrom(source: any = {}) {
	        return new HistoryItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.created_at = source["created_at"];
	        this.state = source["state"];
	        this.summary = source["summary"];
	        this.problem = source["problem"];
	        this.files = source["files"];
	        this.foreign = source["foreign"];
	        this.plan_only = source["plan_only"];
	        this.approved_plan = source["approved_plan"];
	    }
	}
	export class LogFile {
	    source: string;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new LogFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.path = source["path"];
	    }
	}
	export class ReviewRequest {
	    paths: string[];
	    files: apply.FileChoice[];
	
	    static createFrom(source: any = {}) {
	        return new ReviewRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paths = source["paths"];
	        this.files = this.convertValues(source["files"], apply.FileChoice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PlanRequest {
	    problem: string;
	    logs: LogFile[];
	    answers: string[];
	    previous: string;
	    verify: boolean;
	    no_verify: boolean;
	    plan_only: boolean;
	    review?: ReviewRequest;
	
	    static createFrom(source: any = {}) {
	        return new PlanRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.problem = source["problem"];
	        this.logs = this.convertValues(source["logs"], LogFile);
	        this.answers = source["answers"];
	        this.previous = source["previous"];
	        this.verify = source["verify"];
	        this.no_verify = source["no_verify"];
	        this.plan_only = source["plan_only"];
	        this.review = this.convertValues(source["review"], ReviewRequest);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProjectInfo {
	    root: string;
	    name: string;
	    recovered: string[];
	    recent: string[];
	
	    static createFrom(source: any = {}) {
	        return new ProjectInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.name = source["name"];
	        this.recovered = source["recovered"];
	        this.recent = source["recent"];
	    }
	}
	export class Proposed {
	    path: string;
	    before: string;
	    after: string;
	
	    static createFrom(source: any = {}) {
	        return new Proposed(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.before = source["before"];
	        this.after = source["after"];
	    }
	}
	
	export class SettingsView {
	    provider: string;
	    base_url: string;
	    model: string;
	    timeout_seconds: number;
	    max_tokens: number;
	    max_retries: number;
	    stream: boolean;
	    context_budget: number;
	    result_budget: number;
	    command_timeout_seconds: number;
	    verify_before_review: boolean;
	    verify_attempts: number;
	    check_timeout_seconds: number;
	    edit_format: string;
	    context_window: number;
	    price_input_per_mtok: number;
	    price_output_per_mtok: number;
	    no_project_rules: boolean;
	    open_with: string;
	    max_tokens_per_plan: number;
	    max_cost_per_plan: number;
	    key_set: boolean;
	    key_hint: string;
	    key_source: string;
	    keychain_available: boolean;
	    keychain_note: string;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.timeout_seconds = source["timeout_seconds"];
	        this.max_tokens = source["max_tokens"];
	        this.max_retries = source["max_retries"];
	        this.stream = source["stream"];
	        this.context_budget = source["context_budget"];
	        this.result_budget = source["result_budget"];
	        this.command_timeout_seconds = source["command_timeout_seconds"];
	        this.verify_before_review = source["verify_before_review"];
	        this.verify_attempts = source["verify_attempts"];
	        this.check_timeout_seconds = source["check_timeout_seconds"];
	        this.edit_format = source["edit_format"];
	        this.context_window = source["context_window"];
	        this.price_input_per_mtok = source["price_input_per_mtok"];
	        this.price_output_per_mtok = source["price_output_per_mtok"];
	        this.no_project_rules = source["no_project_rules"];
	        this.open_with = source["open_with"];
	        this.max_tokens_per_plan = source["max_tokens_per_plan"];
	        this.max_cost_per_plan = source["max_cost_per_plan"];
	        this.key_set = source["key_set"];
	        this.key_hint = source["key_hint"];
	        this.key_source = source["key_source"];
	        this.keychain_available = source["keychain_available"];
	        this.keychain_note = source["keychain_note"];
	    }
	}

}

export namespace apply {
	
	export class FileChoice {
	    path: string;
	    hunks: number[];
	    content?: string;
	
	    static createFrom(source: any = {}) {
	        return new FileChoice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.hunks = source["hunks"];
	        this.content = source["content"];
	    }
	}
	export class JournalEntry {
	    path: string;
	    op: string;
	    original?: string;
	
	    static createFrom(source: any = {}) {
	        return new JournalEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.op = source["op"];
	        this.original = source["original"];
	    }
	}
	export class JournalInfo {
	    id: string;
	    plan_id?: string;
	    state: string;
	    // Go type: time
	    created: any;
	    where: string;
	    reason?: string;
	    kept?: string[];
	    entries?: JournalEntry[];
	
	    static createFrom(source: any = {}) {
	        return new JournalInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.plan_id = source["plan_id"];
	        this.state = source["state"];
	        this.created = this.convertValues(source["created"], null);
	        this.where = source["where"];
	        this.reason = source["reason"];
	        this.kept = source["kept"];
	        this.entries = this.convertValues(source["entries"], JournalEntry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace plan {
	
	export class Edit {
	    search: string;
	    replace: string;
	
	    static createFrom(source: any = {}) {
	        return new Edit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.search = source["search"];
	        this.replace = source["replace"];
	    }
	}
	export class Action {
	    kind: string;
	    path: string;
	    content?: string;
	    edits: Edit[];
	
	    static createFrom(source: any = {}) {
	        return new Action(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.content = source["content"];
	        this.edits = this.convertValues(source["edits"], Edit);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Call {
	    turn: number;
	    repair?: boolean;
	    model: string;
	    format: string;
	    prompt_tokens: number;
	    completion_tokens: number;
	    attempts: number;
	    duration_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new Call(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turn = source["turn"];
	        this.repair = source["repair"];
	        this.model = source["model"];
	        this.format = source["format"];
	        this.prompt_tokens = source["prompt_tokens"];
	        this.completion_tokens = source["completion_tokens"];
	        this.attempts = source["attempts"];
	        this.duration_ms = source["duration_ms"];
	    }
	}
	export class CheckResult {
	    command: string;
	    focused?: boolean;
	    outcome: string;
	    exit_code: number;
	    timed_out?: boolean;
	    duration_ms: number;
	    output: string;
	    failures?: string[];
	    new_failures?: string[];
	    baseline_exit_code: number;
	
	    static createFrom(source: any = {}) {
	        return new CheckResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.focused = source["focused"];
	        this.outcome = source["outcome"];
	        this.exit_code = source["exit_code"];
	        this.timed_out = source["timed_out"];
	        this.duration_ms = source["duration_ms"];
	        this.output = source["output"];
	        this.failures = source["failures"];
	        this.new_failures = source["new_failures"];
	        this.baseline_exit_code = source["baseline_exit_code"];
	    }
	}
	export class ContextRequest {
	    type: string;
	    path?: string;
	    start_line?: number;
	    end_line?: number;
	    query?: string;
	    glob?: string;
	    source?: string;
	    last_n?: number;
	
	    static createFrom(source: any = {}) {
	        return new ContextRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.path = source["path"];
	        this.start_line = source["start_line"];
	        this.end_line = source["end_line"];
	        this.query = source["query"];
	        this.glob = source["glob"];
	        this.source = source["source"];
	        this.last_n = source["last_n"];
	    }
	}
	export class SeenFile {
	    path: string;
	    whole: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SeenFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.whole = source["whole"];
	    }
	}
	export class ContextResult {
	    request: ContextRequest;
	    ok: boolean;
	    text?: string;
	    error?: string;
	    redactions?: number;
	    seen?: SeenFile[];
	    tokens?: number;
	
	    static createFrom(source: any = {}) {
	        return new ContextResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.request = this.convertValues(source["request"], ContextRequest);
	        this.ok = source["ok"];
	        this.text = source["text"];
	        this.error = source["error"];
	        this.redactions = source["redactions"];
	        this.seen = this.convertValues(source["seen"], SeenFile);
	        this.tokens = source["tokens"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class FileChange {
	    path: string;
	    op: string;
	    diff: string;
	    base_sha256: string;
	    placement?: string[];
	    flags?: string[];
	    syntax_issues?: string[];
	
	    static createFrom(source: any = {}) {
	        return new FileChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.op = source["op"];
	        this.diff = source["diff"];
	        this.base_sha256 = source["base_sha256"];
	        this.placement = source["placement"];
	        this.flags = source["flags"];
	        this.syntax_issues = source["syntax_issues"];
	    }
	}
	export class FileReview {
	    path: string;
	    hunks: number;
	    rejected?: number[];
	    unticked?: boolean;
	    edited?: boolean;
	    edit_diff?: string;
	
	    static createFrom(source: any = {}) {
	        return new FileReview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.hunks = source["hunks"];
	        this.rejected = source["rejected"];
	        this.unticked = source["unticked"];
	        this.edited = source["edited"];
	        this.edit_diff = source["edit_diff"];
	    }
	}
	export class Section {
	    title: string;
	    body: string;
	    tokens?: number;
	
	    static createFrom(source: any = {}) {
	        return new Section(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.body = source["body"];
	        this.tokens = source["tokens"];
	    }
	}
	export class Gathered {
	    sections: Section[];
	    redactions: number;
	    seen: SeenFile[];
	    warnings: string[];
	
	    static createFrom(source: any = {}) {
	        return new Gathered(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sections = this.convertValues(source["sections"], Section);
	        this.redactions = source["redactions"];
	        this.seen = this.convertValues(source["seen"], SeenFile);
	        this.warnings = source["warnings"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LogSource {
	    source: string;
	    path?: string;
	    text?: string;
	
	    static createFrom(source: any = {}) {
	        return new LogSource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.path = source["path"];
	        this.text = source["text"];
	    }
	}
	export class MemoryEntry {
	    key: string;
	    value: number[];
	
	    static createFrom(source: any = {}) {
	        return new MemoryEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	    }
	}
	export class ProposedChanges {
	    patch?: string;
	    actions: Action[];
	    commands_to_run: string[];
	
	    static createFrom(source: any = {}) {
	        return new ProposedChanges(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.patch = source["patch"];
	        this.actions = this.convertValues(source["actions"], Action);
	        this.commands_to_run = source["commands_to_run"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Step {
	    step: string;
	    details: string;
	
	    static createFrom(source: any = {}) {
	        return new Step(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.step = source["step"];
	        this.details = source["details"];
	    }
	}
	export class Plan {
	    mode: string;
	    summary: string;
	    questions: string[];
	    context_requests: ContextRequest[];
	    plan: Step[];
	    proposed_changes?: ProposedChanges;
	    patch?: string;
	    commands_to_run: string[];
	    verification: string[];
	    risks: string[];
	    rollback: string[];
	    memory_patch: MemoryEntry[];
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.summary = source["summary"];
	        this.questions = source["questions"];
	        this.context_requests = this.convertValues(source["context_requests"], ContextRequest);
	        this.plan = this.convertValues(source["plan"], Step);
	        this.proposed_changes = this.convertValues(source["proposed_changes"], ProposedChanges);
	        this.patch = source["patch"];
	        this.commands_to_run = source["commands_to_run"];
	        this.verification = source["verification"];
	        this.risks = source["risks"];
	        this.rollback = source["rollback"];
	        this.memory_patch = this.convertValues(source["memory_patch"], MemoryEntry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Review {
	    files: FileReview[];
	
	    static createFrom(source: any = {}) {
	        return new Review(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = this.convertValues(source["files"], FileReview);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProblemInput {
	    problem: string;
	    logs: LogSource[];
	    answers?: string[];
	    previous?: string;
	    review?: Review;
	    plan_only?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProblemInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.problem = source["problem"];
	        this.logs = this.convertValues(source["logs"], LogSource);
	        this.answers = source["answers"];
	        this.previous = source["previous"];
	        this.review = this.convertValues(source["review"], Review);
	        this.plan_only = source["plan_only"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class VerifiedFile {
	    path: string;
	    hunks: number[];
	    content_sha256?: string;
	
	    static createFrom(source: any = {}) {
	        return new VerifiedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.hunks = source["hunks"];
	        this.content_sha256 = source["content_sha256"];
	    }
	}
	export class VerifiedSelection {
	    scope: string;
	    paths: string[];
	    files: VerifiedFile[];
	
	    static createFrom(source: any = {}) {
	        return new VerifiedSelection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.paths = source["paths"];
	        this.files = this.convertValues(source["files"], VerifiedFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class VerifyAttempt {
	    plan_id: string;
	    summary: string;
	    state: string;
	    reason?: string;
	    new_failures?: string[];
	    output?: string;
	
	    static createFrom(source: any = {}) {
	        return new VerifyAttempt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.plan_id = source["plan_id"];
	        this.summary = source["summary"];
	        this.state = source["state"];
	        this.reason = source["reason"];
	        this.new_failures = source["new_failures"];
	        this.output = source["output"];
	    }
	}
	export class Verification {
	    state: string;
	    reason?: string;
	    commands: CheckResult[];
	    new_failures?: string[];
	    overhead_ms: number;
	    attempts?: VerifyAttempt[];
	    covers?: VerifiedSelection;
	
	    static createFrom(source: any = {}) {
	        return new Verification(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.reason = source["reason"];
	        this.commands = this.convertValues(source["commands"], CheckResult);
	        this.new_failures = source["new_failures"];
	        this.overhead_ms = source["overhead_ms"];
	        this.attempts = this.convertValues(source["attempts"], VerifyAttempt);
	        this.covers = this.convertValues(source["covers"], VerifiedSelection);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Usage {
	    tokenizer: string;
	    prompt_tokens: number;
	    completion_tokens: number;
	    counted?: boolean;
	    window?: number;
	    window_source?: string;
	    base_budget?: number;
	    compact?: boolean;
	    repeats_avoided?: number;
	    cost?: number;
	    ceiling_tokens?: number;
	    ceiling_cost?: number;
	    stopped?: string;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokenizer = source["tokenizer"];
	        this.prompt_tokens = source["prompt_tokens"];
	        this.completion_tokens = source["completion_tokens"];
	        this.counted = source["counted"];
	        this.window = source["window"];
	        this.window_source = source["window_source"];
	        this.base_budget = source["base_budget"];
	        this.compact = source["compact"];
	        this.repeats_avoided = source["repeats_avoided"];
	        this.cost = source["cost"];
	        this.ceiling_tokens = source["ceiling_tokens"];
	        this.ceiling_cost = source["ceiling_cost"];
	        this.stopped = source["stopped"];
	    }
	}
	export class Round {
	    requests: ContextRequest[];
	    results: ContextResult[];
	
	    static createFrom(source: any = {}) {
	        return new Round(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.requests = this.convertValues(source["requests"], ContextRequest);
	        this.results = this.convertValues(source["results"], ContextResult);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Record {
	    id: string;
	    // Go type: time
	    created_at: any;
	    state: string;
	    input: ProblemInput;
	    plan: Plan;
	    changes: FileChange[];
	    base: Gathered;
	    rounds: Round[];
	    warnings: string[];
	    memory: MemoryEntry[];
	    transaction?: string;
	    // Go type: time
	    applied_at?: any;
	    raw?: string;
	    issues?: string[];
	    unfulfilled?: ContextRequest[];
	    calls?: Call[];
	    usage?: Usage;
	    verification?: Verification;
	    review?: Review;
	    approved_plan?: string;
	    foreign?: boolean;
	    fixplan_version?: string;
	
	    static createFrom(source: any = {}) {
	        return new Record(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.state = source["state"];
	        this.input = this.convertValues(source["input"], ProblemInput);
	        this.plan = this.convertValues(source["plan"], Plan);
	        this.changes = this.convertValues(source["changes"], FileChange);
	        this.base = this.convertValues(source["base"], Gathered);
	        this.rounds = this.convertValues(source["rounds"], Round);
	        this.warnings = source["warnings"];
	        this.memory = this.convertValues(source["memory"], MemoryEntry);
	        this.transaction = source["transaction"];
	        this.applied_at = this.convertValues(source["applied_at"], null);
	        this.raw = source["raw"];
	        this.issues = source["issues"];
	        this.unfulfilled = this.convertValues(source["unfulfilled"], ContextRequest);
	        this.calls = this.convertValues(source["calls"], Call);
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.verification = this.convertValues(source["verification"], Verification);
	        this.review = this.convertValues(source["review"], Review);
	        this.approved_plan = source["approved_plan"];
	        this.foreign = source["foreign"];
	        this.fixplan_version = source["fixplan_version"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	
	
	
	
	

}

export namespace session {
	
	export class Check {
	    command: string;
	    focused: boolean;
	    source: string;
	    approved: boolean;
	    from_project: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Check(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.focused = source["focused"];
	        this.source = source["source"];
	        this.approved = source["approved"];
	        this.from_project = source["from_project"];
	    }
	}
	export class CommandResult {
	    command: string;
	    exit_code: number;
	    output: string;
	    timed_out: boolean;
	    stopped: boolean;
	    duration_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new CommandResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.exit_code = source["exit_code"];
	        this.output = source["output"];
	        this.timed_out = source["timed_out"];
	        this.stopped = source["stopped"];
	        this.duration_ms = source["duration_ms"];
	    }
	}
	export class Estimate {
	    tokenizer: string;
	    prompt_tokens: number;
	    schema_tokens: number;
	    reply_tokens: number;
	    first_tokens: number;
	    rounds_tokens: number;
	    worst_tokens: number;
	    worst_requests: number;
	    round_context_tokens: number;
	    first_cost?: number;
	    rounds_cost?: number;
	    worst_cost?: number;
	    window: number;
	    window_source: string;
	    over_window: boolean;
	    ceiling_tokens: number;
	    ceiling_cost: number;
	    over_ceiling: boolean;
	    rounds_over_ceiling: boolean;
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new Estimate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokenizer = source["tokenizer"];
	        this.prompt_tokens = source["prompt_tokens"];
	        this.schema_tokens = source["schema_tokens"];
	        this.reply_tokens = source["reply_tokens"];
	        this.first_tokens = source["first_tokens"];
	        this.rounds_tokens = source["rounds_tokens"];
	        this.worst_tokens = source["worst_tokens"];
	        this.worst_requests = source["worst_requests"];
	        this.round_context_tokens = source["round_context_tokens"];
	        this.first_cost = source["first_cost"];
	        this.rounds_cost = source["rounds_cost"];
	        this.worst_cost = source["worst_cost"];
	        this.window = source["window"];
	        this.window_source = source["window_source"];
	        this.over_window = source["over_window"];
	        this.ceiling_tokens = source["ceiling_tokens"];
	        this.ceiling_cost = source["ceiling_cost"];
	        this.over_ceiling = source["over_ceiling"];
	        this.rounds_over_ceiling = source["rounds_over_ceiling"];
	        this.notes = source["notes"];
	    }
	}
	export class Preset {
	    id: string;
	    name: string;
	    base_url: string;
	    model: string;
	    needs_key: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.needs_key = source["needs_key"];
	    }
	}

}

