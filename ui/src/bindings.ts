// Generated from the Rust types by crates/workbench/src/bindings.rs. Do not edit:
// change the Rust type, then run `UPDATE_BINDINGS=1 cargo test -p statewright-workbench --test bindings`.

/** The typed action whitelist. Nothing outside this enum can run. */
export type Action = {
  type: "navigate_to";
  url: string;
} | {
  type: "go_back";
} | {
  type: "click";
  target: Target;
  button?: MouseButton;
  /** 2 for a double click. */
  count?: number;
  /** Where inside the element, as fractions of its width and height (default centre). */
  position?: Position | null;
} | {
  type: "type";
  target: Target;
  text: string;
  /** Replace the field's content (the default, like Playwright's `fill`, so a state
   * entered again types the same text again); `false` appends to it. */
  clear?: boolean;
} | {
  type: "press_key";
  key: string;
} | {
  type: "scroll";
  direction: Direction;
  /** Pixels. */
  amount?: number;
  /** Scroll inside this element instead of the page. */
  target?: Target | null;
} | {
  type: "scroll_to";
  target: Target;
} | {
  type: "hover";
  target: Target;
} | {
  type: "drag";
  target: Target;
  to: Target;
  position?: Position | null;
} | {
  type: "select_option";
  target: Target;
  value?: Choices | null;
  label?: Choices | null;
} | {
  type: "check";
  target: Target;
  checked?: boolean;
} | {
  type: "upload";
  target: Target;
  files: string[];
} | {
  type: "download";
  target: Target;
  filename: string;
  timeout?: number | null;
} | {
  type: "wait";
  seconds: number;
} | {
  type: "wait_for";
  target: Target;
  timeout?: number | null;
} | {
  type: "extract";
  target: Target;
  into: string;
  read?: ExtractRead;
  /** With `read: attribute`: which one, e.g. `href`. */
  attribute?: string | null;
  /** A regular expression the text must match; the first group (or the whole match,
   * without groups) is kept. Only for `text`, `lines`, `attribute` and `value`. */
  pattern?: string | null;
} | {
  type: "use_skill";
  skill: string;
  args?: Record<string, string>;
  outputs?: Record<string, string>;
} | {
  type: "save_html";
  filename: string;
} | {
  type: "screenshot";
  filename: string;
} | {
  type: "switch_tab";
  tab?: TabSelector;
  close?: boolean;
} | {
  type: "launch";
  program: string;
  args?: string[];
} | {
  type: "focus_window";
  window: WindowSelector;
} | {
  type: "mouse_click";
  x: number;
  y: number;
  window?: WindowSelector | null;
  button?: MouseButton;
  count?: number;
} | {
  type: "mouse_drag";
  from: Point;
  to: Point;
  window?: WindowSelector | null;
} | {
  type: "scroll_at";
  x: number;
  y: number;
  window?: WindowSelector | null;
  dx?: number;
  dy?: number;
} | {
  type: "key_combo";
  keys: string;
} | {
  type: "type_text";
  text: string;
} | {
  type: "wait_for_window";
  window: WindowSelector;
  timeout?: number | null;
};

export type ActionRecord = {
  seq: number;
  step: number;
  state: string;
  index: number;
  kind: string;
  args?: unknown;
  detail?: string | null;
  error?: string | null;
  by_state?: string | null;
  elapsed_ms?: number | null;
  duration_ms?: number | null;
  attempts?: number | null;
  at_ms: number;
  artifact_name?: string | null;
  artifact_path?: string | null;
  /** Other ways to find the element acted on, most stable first (targets, as JSON). */
  alternatives?: unknown;
  /** What an `extract` read into its variable. */
  value?: unknown;
};

/** *Run with a goal*: the model drives a browser towards `goal`, one checked step at a time
 * (`statewright agent`). */
export type AgentRunRequest = {
  /** What to get done, in words. */
  goal: string;
  /** The first page; `{{NAME}}` in it is filled from `params`. */
  url: string;
  /** Values the model may type as `{{NAME}}`; secret ones it never sees. */
  params: Record<string, string>;
  headed: boolean;
  /** Serve the bundled demo site as `{{site}}`. */
  demo_site: boolean;
  /** The most steps the model may take (default 25). */
  max_steps?: number | null;
};

/** Where a batch's runs get their browsers: `statewright batch`'s `--shared-browsers`,
 * `--cdp-url` with `--per-endpoint`, and `--pool`. */
export type BatchBrowsers = {
  kind: "launch";
} | {
  kind: "shared";
  browsers: number;
  per_browser: number;
} | {
  kind: "endpoints";
  cdp_urls: string[];
  per_endpoint: number;
  pool_file?: string | null;
};

/** What the window hears of a batch: a row's run started, a row done, a pool endpoint given
 * up on (its URL with credentials masked; its rows go to the others), the batch done (or
 * failed to go on). */
export type BatchMessage = {
  kind: "started";
  row: number;
  run_id: string;
} | {
  kind: "finished";
  result: RowResult;
  done: number;
  total: number;
} | {
  kind: "endpoint_dead";
  url: string;
  reason: string;
} | {
  kind: "done";
  report: BatchReport;
} | {
  kind: "failed";
  message: string;
};

/** What a batch runs once per row. */
export type BatchOf = {
  kind: "workflow";
  workflow: string;
} | {
  kind: "goals";
  max_steps?: number | null;
};

export type BatchReport = {
  total: number;
  succeeded: number;
  failed: number;
  /** Rows that had succeeded in an earlier go, not run again. */
  skipped: number;
  results_csv: string;
  results_json: string;
  /** Every row's result; none unless asked for (`batch --json`, the window): the tables
   * hold them. */
  rows: RowResult[];
  /** The pool's endpoints: rows run on each, and why one was given up on (none without a pool). */
  endpoints?: EndpointReport[];
};

/** *Batch…*: the workflow run once per row of a data file (`statewright batch`), or *Run
 * with a goal…*'s task file, the model run once per task (`statewright agent --tasks`). */
export type BatchRequest = {
  /** What runs once per row. */
  each: BatchOf;
  /** The rows: a CSV file with a header line, JSON Lines (`.jsonl`) or a JSON array
   * (`.json`); the results table is written beside it (`orders.results.csv`). */
  data: string;
  /** Parameter values for every row; a row's own values win. */
  params: Record<string, string>;
  /** Runs at a time (at most 16; default 2, or with a pool all it takes), never more than
   * the pool takes. */
  concurrency?: number | null;
  demo_site: boolean;
  /** Show the browser windows (only for browsers launched per row). */
  headed: boolean;
  /** Where the rows' browsers come from (default: one launched per row). */
  browsers?: BatchBrowsers;
  /** Seconds a row's run may take before it is stopped and its row ends `timed_out`
   * (none: no limit), as `--run-timeout`. */
  run_timeout?: number | null;
};

/** Circuit breakers: each trips when its count passes its limit, and the run escalates. */
export type Breakers = {
  /** Entries of any one state (retries included). */
  state_entries?: number;
  /** Times any one action is performed in a run. */
  action_attempts?: number;
  /** Times in a row the same element is acted on with no new state reached in between. */
  same_target?: number;
  /** Times a cycle of states (A → B → A → B …) repeats with no new state reached. */
  cycles?: number;
  /** Failures in a row (unverified states, failed actions) before retries are skipped
   * and the run escalates at once. */
  consecutive_failures?: number;
};

/** One predicate on the live page. `negate` inverts it. */
export type Check = {
  type: "url";
  match?: UrlMatch;
  value: string;
  negate?: boolean;
} | {
  type: "title";
  match?: TitleMatch;
  value: string;
  negate?: boolean;
} | {
  type: "text";
  match?: TextMatch;
  value: string;
  negate?: boolean;
} | {
  type: "element";
  by?: SelectorKind;
  selector: string;
  negate?: boolean;
} | {
  type: "window_title";
  match?: TitleMatch;
  value: string;
  negate?: boolean;
} | {
  type: "app_class";
  value: string;
  negate?: boolean;
} | {
  type: "window_exists";
  title?: string | null;
  match?: TitleMatch;
  app_class?: string | null;
  negate?: boolean;
} | {
  type: "window_focused";
  title?: string | null;
  match?: TitleMatch;
  app_class?: string | null;
  negate?: boolean;
} | {
  type: "variable";
  name: string;
  match?: VariableMatch;
  value: string;
  negate?: boolean;
};

/** The result of one check when a state was entered. */
export type CheckResult = {
  check: string;
  passed: boolean;
};

/** One string, or a list of them. */
export type Choices = string | string[];

/** Executor knobs. Durations are in seconds, as in CliGent. */
export type Config = {
  /** When several states match at once: true picks the first, false fails the run. */
  allow_multiple_states?: boolean;
  /** Longest wait between two evaluations of the states when the page reports no change. */
  transition_period?: number;
  /** How long no state may match before the run fails. */
  no_states_timeout?: number;
  /** Pause between two actions of a state. */
  action_period?: number;
  /** How long a non-continuous state may keep matching after its actions ran. */
  state_timeout?: number;
  /** How long an element action waits for its target to become actionable. */
  action_timeout?: number;
  /** The most state entries one run may make: the run's step budget. */
  recursion_limit?: number;
  /** Browser viewport used for new pages. */
  viewport?: Viewport;
  /** How long, after a state's actions, the run has to show that it moved on (one of the
   * state's `next` states, or its `expect` checks) before the actions are retried. */
  verify_timeout?: number;
  /** How many times a state's actions are retried when they were not verified. */
  max_retries?: number;
  /** What is tried, in order, when a state fails (not verified after its retries, an
   * action that cannot be done, no state recognised, a breaker tripped). */
  escalation?: EscalationStage[];
  /** Limits that stop a run going round in circles. */
  breakers?: Breakers;
  /** What happens to a fix the model found that got a run going: `review` (a proposal a
   * person approves or rejects) or `auto` (saved into the workflow file at once). */
  model_fixes?: ModelFixes;
};

/** Why one state did not match: which of its checks failed. */
export type Diagnosis = {
  state: string;
  passed: number;
  total: number;
  failing: string[];
};

/** One finding, positioned in its file. */
export type Diagnostic = {
  severity: Severity;
  file: string;
  line: number;
  column: number;
  /** The JSON path of the offending value, e.g. `states[2].actions[0].target`. */
  path: string;
  message: string;
  /** What to do about it. */
  help?: string | null;
};

export type Direction = "up" | "down" | "left" | "right";

/** One edge of the graph. */
export type Edge = {
  from: string;
  to: string;
  /** Listed in `from`'s `next`. */
  declared: boolean;
  /** How many times stored runs took it. */
  taken: number;
  /** Mean time from entering `from` to entering `to`, over the runs that took it. */
  mean_ms?: number | null;
};

/** One endpoint's part in a batch, as the report gives it. */
export type EndpointReport = {
  /** The URL with its credentials masked. */
  url: string;
  max_runs: number;
  /** Rows that ran there (got a page there). */
  runs: number;
  /** Why it was given up on, if it was. */
  dead?: string | null;
};

/** An error as the UI receives it. */
export type ErrorPayload = {
  code: string;
  message: string;
};

/** Everything a reviewer needs to understand a stuck run in a minute. */
export type EscalationRequest = {
  workflow: string;
  step: number;
  /** The state the run was in, if any. */
  state?: string | null;
  failure: Failure;
  /** The failure explained in one paragraph. */
  reason: string;
  /** What the escalation chain tried before asking, in order. */
  tried: Tried[];
  /** The action that failed, with secrets masked. */
  action?: PendingAction | null;
  /** The page as it is now (screenshot bytes are not serialised; the store keeps them). */
  observation?: Observation | null;
  /** The workflow's state names, for "this page is state X". */
  states: string[];
  /** Checks that hold on this page, offered for a new state. */
  suggested_checks: Check[];
  /** States known only by their prompt, which the model may make concrete from this page. */
  unresolved?: Unresolved[];
};

/** One step of the escalation chain. */
export type EscalationStage = "reobserve" | "heal" | "llm" | "human";

export type Event = {
  event: "run_started";
  workflow: string;
  states: number;
} | {
  event: "state_entered";
  step: number;
  state: string;
  state_index: number;
  /** How many times this state has been entered in this run, this one included. */
  visit: number;
  elapsed_ms: number;
  url: string;
  checks: CheckResult[];
  /** Other states whose checks also held on this page and lost on priority: the
   * evidence `validate` uses to find states that can never win. */
  also_matched?: string[];
} | {
  event: "observed";
  step: number;
  url: string;
  title: string;
  /** The page's visible text, whitespace-normalised and truncated. */
  text: string;
  /** Interactive elements with stable ids (`e12`), as the driver reports them. */
  elements: unknown;
  /** The run's other open tabs, the one it was on most recently first: filled in where a
   * model or a person is asked, since only they choose between tabs. */
  tabs?: OpenTab[];
} | {
  event: "action_started";
  step: number;
  state: string;
  index: number;
  /** The action with parameters filled in and secrets masked. */
  action: Action;
} | {
  event: "action_finished";
  step: number;
  state: string;
  index: number;
  action: Action;
  elapsed_ms: number;
  duration_ms: number;
  /** How many times the target was looked for before acting (1 = at once). */
  attempts: number;
  detail?: string | null;
  error?: string | null;
  /** Other locators of the element acted on (see `Outcome::alternatives`). */
  alternatives?: Target[];
  /** Other locators of the element a `drag` let go on (see `Outcome::to_alternatives`). */
  to_alternatives?: Target[];
  /** What an `extract` stored in its variable (masked when it shows a secret). */
  value?: unknown;
} | {
  event: "tab_opened";
  step: number;
  state: string;
  index: number;
  /** The new tab's address, its query values and credentials masked. */
  url: string;
} | {
  event: "action_preempted";
  step: number;
  state: string;
  index: number;
  by_state: string;
  reason: string;
} | {
  event: "verified";
  step: number;
  state: string;
  via: string;
  next_state?: string | null;
} | {
  event: "retrying";
  step: number;
  state: string;
  attempt: number;
  max: number;
  reason: string;
} | {
  event: "route_planned";
  step: number;
  from: string;
  to: string;
  route: string[];
  /** The expected time, from the stored runs' transition times. */
  cost_ms: number;
  replanned: boolean;
} | {
  event: "interrupt_entered";
  step: number;
  state: string;
  interrupted?: string | null;
} | {
  event: "healed";
  step: number;
  state: string;
  index: number;
  /** Which of the action's elements was healed: its `target`, or a drag's `to`. */
  field?: TargetField;
  from: Target;
  to: Target;
} | {
  event: "checks_located";
  step: number;
  state: string;
  checks: LocatedCheck[];
} | {
  event: "check_healed";
  step: number;
  state: string;
  index: number;
  from: Check;
  to: Check;
} | {
  event: "breaker_tripped";
  breaker: string;
  count: number;
  limit: number;
  state?: string | null;
} | {
  event: "model_called";
  step: number;
  state?: string | null;
  model: string;
  /** The prompt's size in characters (text only; the image is counted by the server). */
  prompt_chars: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
  /** US dollars, from the configured prices. */
  cost: number;
  /** The model's answer (secrets masked, shortened). */
  answer: string;
  /** Whether the answer was valid and used. */
  accepted: boolean;
  /** Why the call failed or the answer was refused. */
  error?: string | null;
} | {
  event: "advice_worked";
  step: number;
  model: string;
  resolution: Resolution;
  /** What the model was shown (the page, the failure), for the reviewer. */
  request: EscalationRequest;
} | {
  event: "escalated";
  step: number;
  state?: string | null;
  stage: string;
  reason: string;
  outcome: string;
  resolved: boolean;
} | {
  event: "review_requested";
  review_id: number;
  step: number;
  state?: string | null;
  reason: string;
} | {
  event: "review_resolved";
  review_id: number;
  resolution: Resolution;
} | {
  event: "run_finished";
  status: RunStatus;
  end_state?: string | null;
  outcome?: Outcome | null;
  message: string;
  failure?: Failure | null;
  duration_ms: number;
  steps: number;
  actions: number;
  /** The run's variables as last extracted (secret ones masked). */
  outputs?: Record<string, unknown>;
};

/** What an `extract` action reads from the page. */
export type ExtractRead = "text" | "lines" | "attribute" | "value" | "count" | "list" | "table";

/** Why a run failed, with what is needed to understand it. */
export type Failure = {
  kind: "failure_state";
  state: string;
  message: string;
} | {
  kind: "stuck";
  state: string;
  seconds: number;
} | {
  kind: "not_verified";
  state: string;
  attempts: number;
  seconds: number;
} | {
  kind: "breaker";
  breaker: string;
  count: number;
  limit: number;
  state?: string | null;
} | {
  kind: "review_timeout";
  review_id: number;
  seconds: number;
} | {
  kind: "review";
  error: string;
} | {
  kind: "aborted";
  reason: string;
} | {
  kind: "no_state";
  seconds: number;
  url: string;
  title: string;
  closest: Diagnosis[];
  silent?: boolean;
} | {
  kind: "ambiguous";
  states: string[];
} | {
  kind: "recursion_limit";
  limit: number;
} | {
  kind: "action";
  state: string;
  index: number;
  action: string;
  error: string;
} | {
  kind: "driver";
  error: string;
} | {
  kind: "setup";
  error: string;
} | {
  kind: "record";
  error: string;
} | {
  kind: "no_route";
  from: string;
  to: string;
};

/** One finding about the graph. It names the states, says why, and suggests the fix. */
export type Finding = {
  kind: FindingKind;
  /** The states concerned; the first is the one to change. */
  states: string[];
  /** For edge findings: the edge's ends. */
  edge?: unknown[] | null;
  message: string;
  help: string;
};

export type FindingKind = "unreachable" | "no_way_out" | "no_success_terminal" | "shadowed" | "never_won" | "unverifiable" | "edge_never_taken" | "undeclared_transition";

/** What saving a review's fix would change: the unified diff of the workflow file. */
export type FixPreview = {
  diff: string;
  path: string;
};

export type GraphReport = {
  findings: Finding[];
  edges: Edge[];
  /** How many stored runs the evidence comes from. */
  runs: number;
};

/** A locator healed during a run: a proposed change to the workflow. */
export type Healed = {
  /** The step it happened in; none for runs recorded before steps were kept. */
  step?: number | null;
  state: string;
  index: number;
  /** Which of the action's elements: its `target`, or a drag's `to`. */
  field: TargetField;
  from: Target;
  to: Target;
};

/** An element check healed during a run: a proposed change to the workflow. */
export type HealedCheck = {
  step?: number | null;
  state: string;
  index: number;
  from: Check;
  to: Check;
};

/** Locators a run healed, saved into its workflow file (or, with `write` off, only diffed). */
export type HealedSaved = {
  path: string;
  diff: string;
  /** One line per locator replaced. */
  changes: string[];
  /** The store's id of the file's previous content, when it was written. */
  version?: number | null;
};

/** *Judge answers*: a task file's results table (its `.json`), judged by the model set
 * under *Model…* from each run's last `screenshots` (default 3), as `statewright judge`;
 * `again` judges the tasks judged before anew (`--again`). */
export type JudgeAnswers = {
  results: string;
  screenshots?: number | null;
  again?: boolean;
};

/** What the window hears of a judge: a task's row with its verdict (or none yet), then the
 * report (or why it could not go on). */
export type JudgeMessage = {
  kind: "judged";
  result: RowResult;
  done: number;
  total: number;
} | {
  kind: "done";
  report: JudgeReport;
} | {
  kind: "failed";
  message: string;
};

export type JudgeReport = {
  total: number;
  success: number;
  not_success: number;
  /** Tasks with no verdict: the model could not be reached or gave none, or the run is
   * not in the store. The next go asks again. */
  unjudged: number;
  /** `success / total`; none for an empty table. */
  score?: number | null;
  /** This go's calls to the model, their tokens and cost (US dollars). */
  llm_calls: number;
  llm_tokens: number;
  llm_cost: number;
  /** Whether the judge was stopped before every task was judged. */
  interrupted: boolean;
  results_csv: string;
  results_json: string;
  rows: RowResult[];
};

/** What the judge said of a task, in its results table row. */
export type Judgement = {
  /** `success`, `not_success`, or `unjudged` when no verdict could be had (the reason says
   * why; the next go asks again). */
  verdict: string;
  reason: string;
  /** The model that judged; none when the run's own status decided. */
  model?: string | null;
};

/** An element check of a state, and the other locators that found its element. */
export type LocatedCheck = {
  /** The check's index among its state's checks. */
  index: number;
  check: Check;
  alternatives: Target[];
};

/** One call to the model, as the run records it. */
export type ModelCallRecord = {
  step: number;
  state?: string | null;
  model: string;
  /** The prompt's size in characters (text only; the image is counted by the server). */
  prompt_chars: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
  /** US dollars, from the configured prices. */
  cost: number;
  /** The model's answer (secrets masked, shortened). */
  answer: string;
  /** Whether the answer was valid and used. */
  accepted: boolean;
  /** Why the call failed or the answer was refused. */
  error?: string | null;
};

export type ModelFixes = "review" | "auto";

/** The model settings as the app's settings page shows them. The API key never leaves the
 * shell: the page only learns whether one is set. */
export type ModelSettings = {
  /** The settings file. */
  path: string;
  /** The OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`; none: no model. */
  url?: string | null;
  model?: string | null;
  /** Seconds one call may take. */
  timeout?: number | null;
  retries?: number | null;
  /** US dollars per million prompt tokens. */
  input_price?: number | null;
  /** US dollars per million completion tokens. */
  output_price?: number | null;
  /** Send screenshots (off for text-only models). */
  vision?: boolean | null;
  /** A PEM file of certificate authorities trusted besides the system's (https). */
  ca_cert?: string | null;
  has_api_key: boolean;
  /** Environment variables set for the app that override the file. */
  overridden_by_env: string[];
};

/** A change to the model settings; `api_key`: `None` keeps the key, `""` removes it. */
export type ModelSettingsChange = {
  url?: string | null;
  model?: string | null;
  timeout?: number | null;
  retries?: number | null;
  input_price?: number | null;
  output_price?: number | null;
  vision?: boolean | null;
  ca_cert?: string | null;
  api_key?: string | null;
};

export type MouseButton = "left" | "right" | "middle";

/** A record of the page at one step: for people, reviewers and later learning. */
export type Observation = {
  url: string;
  title: string;
  /** The page's visible text, whitespace-normalised and truncated. */
  text: string;
  /** Interactive elements with stable ids (`e12`), as the driver reports them. */
  elements: unknown;
  /** The run's other open tabs, the one it was on most recently first: filled in where a
   * model or a person is asked, since only they choose between tabs. */
  tabs?: OpenTab[];
};

/** One of the run's other tabs, as a `switch_tab` may name it. */
export type OpenTab = {
  url: string;
  title: string;
  /** The tab the run was on just before this page: `switch_tab` with no tab named. */
  previous?: boolean;
};

/** A workflow file as the editor opens it. */
export type OpenedWorkflow = {
  id: string;
  /** `None` when the file is not a workflow at all (the diagnostics say why). */
  workflow?: Workflow | null;
  /** The SHA-256 of the file's bytes, handed back on save to detect changes by others. */
  hash: string;
  /** The validator's findings (errors and warnings), positioned by JSON path. */
  diagnostics: Diagnostic[];
};

export type Outcome = "success" | "failure";

/** An interactive element of the page, as the driver's snapshot reports it (an entry
 * without the first seven fields is not shown). */
export type PageElement = {
  /** A stable id within the step (`e12`). */
  id: string;
  tag: string;
  role: string;
  /** The accessible name. */
  name: string;
  text: string;
  rect: Rect;
  /** A CSS selector that finds exactly this element. */
  selector: string;
  type?: string | null;
  value?: string | null;
  checked?: boolean | null;
  placeholder?: string | null;
  href?: string | null;
  disabled?: boolean | null;
};

export type PageRecord = {
  url: string;
  title: string;
  text: string;
  elements: unknown;
};

export type Parameter = {
  description?: string;
  /** Used when the run does not supply a value. Without one the parameter is required. */
  default?: string | null;
  /** Secret values never reach logs, run records or screenshots' metadata. */
  secret?: boolean;
};

export type PendingAction = {
  state: string;
  index: number;
  action: Action;
};

/** A point in pixels: on the screen, or inside a window's client area. */
export type Point = {
  x: number;
  y: number;
};

export type Position = {
  x: number;
  y: number;
};

/** A demonstration recorded from the app (*Record…*) and compiled into a workflow file. */
export type RecordedWorkflow = {
  /** The workflow file written (or merged into), as a [`WorkflowEntry`] id. */
  id: string;
  /** The recording's run, in the run store like any run. */
  run_id: string;
  acts: number;
  states: number;
  actions: number;
  /** Whether the file existed and the recording was merged into it. */
  merged: boolean;
  /** What the compiler noticed (a page it could not tell apart, a missing goal page…). */
  notes: string[];
};

/** In CSS pixels of the viewport. */
export type Rect = {
  x: number;
  y: number;
  width: number;
  height: number;
};

/** How a person (or an LLM) tells a stuck run to go on. */
export type Resolution = {
  kind: "retry";
} | {
  kind: "skip";
} | {
  kind: "actions";
  actions: Action[];
} | {
  kind: "declare_state";
  state: string;
} | {
  kind: "new_state";
  state: State;
  before?: string | null;
} | {
  kind: "synthesized";
  state: string;
  checks: Check[];
  actions?: Action[];
} | {
  kind: "abort";
  reason?: string;
};

/** A state's actions run again because they were not verified (a `retrying` event). */
export type RetryRecord = {
  step: number;
  state: string;
  attempt: number;
  max: number;
  reason: string;
};

/** The review queue as the app shows it. */
export type ReviewList = {
  /** Every open review, then the latest closed ones, each newest first. */
  reviews: ReviewSummary[];
  /** Closed reviews (resolved, cancelled, approved or rejected) in the store: more than
   * `reviews` holds when older ones were left out. */
  closed: number;
};

/** One review as a list shows it: no page, no request beyond its failure. */
export type ReviewSummary = {
  id: number;
  run_id: string;
  workflow: string;
  /** The workflow file the run was started from, where a fix can be saved. */
  workflow_path?: string | null;
  step?: number | null;
  state?: string | null;
  /** `open`, `resolved` or `cancelled`; a proposal ends `approved` or `rejected`. */
  status: string;
  created_ms: number;
  resolved_ms?: number | null;
  reason: string;
  failure: Failure;
  resolution?: Resolution | null;
  /** Where the fix was saved, if it was. */
  saved_to?: string | null;
  /** The model that proposed `resolution`, or `None` for a run waiting for a person. */
  proposed_by?: string | null;
};

/** A review shown whole: what the queue lists of it, then its request spread out. */
export type ReviewView = {
  id: number;
  run_id: string;
  workflow: string;
  /** The workflow file the run was started from, where a fix can be saved. */
  workflow_path?: string | null;
  step?: number | null;
  state?: string | null;
  /** `open`, `resolved` or `cancelled`; a proposal ends `approved` or `rejected`. */
  status: string;
  created_ms: number;
  resolved_ms?: number | null;
  reason: string;
  failure: Failure;
  resolution?: Resolution | null;
  /** Where the fix was saved, if it was. */
  saved_to?: string | null;
  /** The model that proposed `resolution`, or `None` for a run waiting for a person. */
  proposed_by?: string | null;
  /** What the escalation chain tried before asking, in order. */
  tried: Tried[];
  /** A path under the runs folder, served over `shot:`. */
  screenshot?: string | null;
  url: string;
  title: string;
  elements: PageElement[];
  /** The run's other open tabs, the one it was on most recently first. */
  tabs?: OpenTab[];
  action?: PendingAction | null;
  states: string[];
  suggested_checks: Check[];
};

/** A planned route: the states the run expects to pass through, `from` and `to` included. */
export type Route = {
  states: string[];
  /** The expected time, in milliseconds. */
  cost_ms: number;
};

/** One row's outcome, as the results table holds it. */
export type RowResult = {
  /** 1-based, in the data file's order. */
  row: number;
  /** The row's values, secret ones masked. */
  values: Record<string, string>;
  /** `succeeded`, `failed`, `timed_out` (stopped at the batch's run time limit),
   * `cancelled`, `error` (the run could not start), or `running` while it runs (a table
   * left with `running` rows was written by a batch that was killed). */
  status: string;
  end_state?: string | null;
  duration_ms: number;
  run_id?: string | null;
  message: string;
  /** The pool endpoint the run attached to (credentials masked); none when it launched
   * its own browser. */
  endpoint?: string | null;
  /** What the run read into its variables (secret ones masked); for a goal, the model's
   * `answer`. */
  outputs?: Record<string, unknown>;
  /** The run's calls to a model, their tokens and their cost (US dollars, from the
   * configured prices); none for a run that asked no model. */
  llm_calls?: number;
  llm_tokens?: number;
  llm_cost?: number;
  /** What `statewright judge` said of a task's answer; none until it is judged (a row run
   * again loses its verdict with its old run). */
  judged?: Judgement | null;
};

export type RunDetail = {
  run: RunSummary;
  steps: StepRecord[];
  actions: ActionRecord[];
  /** The LLM stage's calls, in order. */
  model_calls: ModelCallRecord[];
  /** Locators and element checks healed, in order: proposed changes to the workflow. */
  healed: Healed[];
  healed_checks: HealedCheck[];
  /** A state's actions run again, in order. */
  retries: RetryRecord[];
  /** Tabs actions opened, which the run went on in, in order. */
  tabs_opened: TabOpenedRecord[];
  /** The run's reviews, in order, without their pages. */
  reviews: ReviewSummary[];
};

/** Which past runs to list. */
export type RunFilter = {
  workflow?: string | null;
  status?: string | null;
  limit?: number | null;
};

/** One message of a run's stream, sent once the event is in the run store: the engine's
 * event and, for `observed`, the stored screenshot's path (served over `shot:`). */
export type RunMessage = {
  event: Event;
  screenshot?: string | null;
};

/** What the UI asks for when it starts a run. */
export type RunRequest = {
  /** The workflow's id (file name) in the workflows folder. */
  workflow: string;
  /** Parameter values by name; secrets travel here once and are masked everywhere after. */
  params: Record<string, string>;
  headed: boolean;
  /** Serve the bundled demo site and pass its address as the `site` parameter. */
  demo_site: boolean;
  /** Attach to a running browser's DevTools endpoint instead of launching one. */
  cdp_url?: string | null;
  /** Carry on from the state the page is in (in an attached browser, its open tab). */
  resume?: boolean;
  /** Go to this state (*Go here*): the run ends when it is recognised. */
  goal?: string | null;
};

/** How a run ended. */
export type RunStatus = "succeeded" | "failed" | "cancelled";

export type RunSummary = {
  id: string;
  workflow: string;
  workflow_hash: string;
  parameters: unknown;
  browser: string;
  status: string;
  outcome?: string | null;
  end_state?: string | null;
  message?: string | null;
  failure?: unknown;
  started_ms: number;
  finished_ms?: number | null;
  duration_ms?: number | null;
  steps: number;
  actions: number;
  llm_calls: number;
  llm_tokens: number;
  /** US dollars the model calls cost, from the configured prices. */
  llm_cost: number;
  /** The run's variables as last extracted (secret ones masked): `{}` when none. */
  outputs: unknown;
  /** Locators and element checks the run healed. */
  heals: number;
  /** Times a state's actions ran again because they were not verified. */
  retries: number;
  /** Reviews the run asked for or a model proposed, open or closed. */
  reviews: number;
};

export type SaveResult = {
  hash: string;
  diagnostics: Diagnostic[];
};

export type SelectorKind = "css" | "xpath";

export type Severity = "error" | "warning";

/** What makes a workflow a skill (seed 003's `url_start`, `url_end` and expectations): a
 * skill runs from where its preconditions hold to a success terminal, after which its
 * postconditions must hold. Its parameters are its arguments, its variables its outputs. */
export type Skill = {
  /** Checks that must hold on the page before the skill starts. */
  pre?: Check[];
  /** Checks that must hold once it has ended. */
  post?: Check[];
  /** Where it came from (an imported folder, the runs it was mined from), for people. */
  source?: string;
};

export type State = {
  name: string;
  description?: string;
  /** What this state is, in words, for the model to make concrete (CliGent's regenerative
   * mode), e.g. "sign in as {{username}}". A state with a prompt and no checks is
   * synthesised on a run: the model writes its checks and actions from the live page,
   * the run verifies them, and they are proposed as a fix; after that, no model. */
  prompt?: string | null;
  /** "Where am I": all must hold for the state to match. An empty list never matches. */
  checks?: Check[];
  /** "What to do here", in order. */
  actions?: Action[];
  /** A continuous state re-runs its actions on every pass instead of once per entry. */
  continuous?: boolean;
  /** An interrupt (a consent banner, a modal, "session expired") may show up at any point.
   * Interrupts are recognised before other states; handling one is a detour, after which
   * the run resumes where it was. */
  interrupt?: boolean;
  /** The states this state's actions are expected to lead to. Reaching one verifies them. */
  next?: string[];
  /** Checks that also verify this state's actions when they all hold afterwards (an
   * anchor or success indicator on the same page). With neither `next` nor `expect`,
   * any change of state verifies them. */
  expect?: Check[];
  /** Present on terminal states: entering one ends the run after its actions. */
  terminal?: Terminal | null;
};

export type StepRecord = {
  step: number;
  state: string;
  state_index: number;
  visit: number;
  elapsed_ms: number;
  entered_ms: number;
  url: string;
  checks: unknown;
  screenshot?: string | null;
  page_title?: string | null;
  /** Only when asked for (`with_pages`). */
  page?: PageRecord | null;
};

/** *Synthesise from this page*: the model's state (a `synthesized` resolution), unsaved, and
 * its checks the stored page could not decide, each with why (a run holds them to the live
 * page), for the person reviewing it. */
export type SynthesizedState = {
  resolution: Resolution;
  undecided: string[];
};

/** An action opened a tab and the run went on in it (a `tab_opened` event). */
export type TabOpenedRecord = {
  step: number;
  state: string;
  index: number;
  /** Masked as the event was. */
  url: string;
};

/** Which of the run's tabs is meant: every field that is set must match. */
export type TabSelector = {
  /** The tab's address. */
  url?: string | null;
  /** The tab's document title. */
  title?: string | null;
  /** How `url` and `title` are compared (default `contains`: an address carries a query
   * string and a title a site's name, which a workflow rarely wants to spell out). */
  match?: TitleMatch;
};

/** How an action finds its element. Exactly one of `css`, `xpath`, `text` or `role` is set;
 * `name` narrows `role` by accessible name; `exact: false` matches `text` or `name` as a
 * person reads them; `nth` picks among several matches (0-based). */
export type Target = {
  css?: string | null;
  xpath?: string | null;
  /** The element whose whitespace-normalised visible text equals this. */
  text?: string | null;
  /** An ARIA role (explicit or implicit), e.g. `button`, `link`, `textbox`. */
  role?: string | null;
  /** With `role`: the accessible name, matched exactly after whitespace normalisation. */
  name?: string | null;
  /** `false`: `text` or `name` is found in any case and within a longer text (`Checkout`
   * finds "Checkout →" and "CHECKOUT"), as Playwright's `getByText` finds it. Default
   * `true`. Healing tries a target loosely when it finds nothing exactly. */
  exact?: boolean | null;
  nth?: number | null;
};

/** Which of an action's elements: the one it works on (`target`), or the one a `drag` lets
 * go on (`to`). Named as the action's field is in a workflow file. */
export type TargetField = "target" | "to";

export type Terminal = {
  outcome: Outcome;
  message?: string;
};

export type TextMatch = "equals" | "contains";

export type TitleMatch = "exact" | "contains" | "pattern";

/** A workflow or skill file in the trash (deleted from the app, restorable). */
export type TrashEntry = {
  /** Its name in the trash, e.g. `1718000000000-demo-shop.json` (behind `skills/` for a
   * skill); how the UI asks to restore it. */
  id: string;
  /** The id it had, which restoring gives back: `demo-shop.json`. */
  original: string;
  /** The workflow's own name (the file stem when the file has none). */
  name: string;
  /** When it was deleted, in milliseconds since the epoch. */
  deleted_ms: number;
  skill: boolean;
};

export type Tried = {
  stage: string;
  outcome: string;
};

/** A state still to be synthesised: its name and what it is, in words. */
export type Unresolved = {
  state: string;
  prompt: string;
};

export type UrlMatch = "exact" | "prefix" | "pattern";

/** How a `variable` check compares. The numeric comparisons read the first number in the
 * variable and in `value` (`$1,234.50` is 1234.5) and fail when either has none. */
export type VariableMatch = "equals" | "contains" | "less_than" | "at_most" | "greater_than" | "at_least" | "pattern";

export type Viewport = {
  width: number;
  height: number;
};

/** Which desktop window is meant: every field that is set must match; at least one is set. */
export type WindowSelector = {
  title?: string | null;
  /** How `title` is compared (default `exact`). */
  match?: TitleMatch;
  /** The application class or instance (`WM_CLASS`), compared case-insensitively. */
  app_class?: string | null;
};

/** A finite-state machine of one task. */
export type Workflow = {
  /** Format version; always 1 for now. Files without it are read as CliGent files. */
  version: number;
  name: string;
  description?: string;
  /** Named inputs, referenced as `{{name}}` in URLs, text, selectors and check values. */
  parameters?: Record<string, Parameter>;
  config?: Config;
  /** Present on a skill: a sub-workflow that others run with a `use_skill` action. */
  skill?: Skill | null;
  /** States in priority order: when several match, the first one wins. */
  states: State[];
};

/** A file in the workflows folder was written, created or removed by anyone. */
export type WorkflowChange = {
  id: string;
  removed: boolean;
};

/** One file of the workflows folder. */
export type WorkflowEntry = {
  /** The file name inside the folder, e.g. `demo-shop.json`; how the UI names the file. */
  id: string;
  /** The workflow's own name (the file stem when the file cannot be read). */
  name: string;
  states: number;
  modified_ms: number;
  /** Why the file cannot be opened in the editor, if it cannot. */
  error?: string | null;
  /** A file of the skills folder (its id starts with `skills/`). */
  skill: boolean;
};
