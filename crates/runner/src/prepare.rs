//! Preparing a run: the workflow loaded and its parameters bound (the demo site served when
//! asked), the store opened and the run recorded as started under a fresh id.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{Value, json};
use statewright_demo::{Site, SiteServer};
use statewright_engine::{Advisor, Cancel, Event, Goal, Skills};
use statewright_store::{Error as StoreError, NewRun, RunHandle, Store};
use statewright_workflow::{Action, Params, Workflow, load_file};
use statewright_world::needs;

use crate::error::RunError;
use crate::request::{Browser, DemoSite, ReviewPolicy, RunRequest, WorkflowSource};
use crate::summary::RunSummary;

/// A run recorded as started, ready to execute. Dropping it without executing leaves the
/// run to be marked `interrupted` by the next start (its lock file goes with it).
pub struct PreparedRun {
    pub(crate) id: String,
    pub(crate) workflow: Workflow,
    pub(crate) params: Params,
    pub(crate) browser: Browser,
    pub(crate) browser_label: String,
    pub(crate) warnings: Vec<String>,
    /// Kept alive for the run; the server stops when dropped.
    pub(crate) site: Option<SiteServer>,
    pub(crate) store: Store,
    pub(crate) handle: RunHandle,
    pub(crate) db: PathBuf,
    pub(crate) run_dir: PathBuf,
    pub(crate) review: ReviewPolicy,
    pub(crate) advisor: Option<Arc<dyn Advisor>>,
    pub(crate) resume: bool,
    pub(crate) goal: Option<Goal>,
    pub(crate) skills: Skills,
    /// A browser page got before the run was prepared (a batch's pool attaches first, to
    /// find a dead endpoint before a run is recorded); otherwise execute starts one.
    pub(crate) chrome: Option<statewright_chrome::ChromeDriver>,
    /// When the run was recorded as started: its duration counts from then, launching its
    /// browser included, so that it is the time between its record's start and end.
    pub(crate) began: tokio::time::Instant,
}

impl PreparedRun {
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn workflow(&self) -> &Workflow {
        &self.workflow
    }

    /// What the run drives, in words: `headless Chromium`, `attached browser + desktop`…
    pub fn browser_label(&self) -> &str {
        &self.browser_label
    }

    /// Loader warnings (e.g. CliGent features with no counterpart), for the caller to show.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Where the run folder is exported to.
    pub fn run_dir(&self) -> &Path {
        &self.run_dir
    }

    /// Records a run that never got going (the caller gave up before executing it).
    pub fn abort(self, reason: &str) {
        if let Err(e) = self.store.abort_run(self.handle, reason) {
            tracing::warn!("cannot record the run in the store: {e}");
        }
    }

    /// Runs to the end (or until `cancel`); `observer` hears of each event once it is
    /// persisted. See [`crate::record`].
    pub async fn execute(self, cancel: Cancel, observer: impl FnMut(&Event) + Send + 'static) -> RunSummary {
        crate::record::execute(self, cancel, observer).await
    }
}

/// Loads, binds and records the run as started. Errors of the caller's input are
/// [`crate::RunErrorKind::Invalid`].
pub async fn prepare(request: RunRequest) -> Result<PreparedRun, RunError> {
    let db = request.db_path();
    let RunRequest {
        workflow,
        params,
        browser,
        demo_site,
        runs_dir,
        review,
        llm,
        advisor,
        resume,
        goal,
        skills_dir,
        ..
    } = request;
    let (workflow, path, warnings) = match workflow {
        WorkflowSource::File(file) => {
            let loaded = load_file(&file).map_err(|d| RunError::invalid("invalid_workflow", d.to_string()))?;
            let warnings = loaded.warnings.0.iter().map(ToString::to_string).collect();
            (loaded.workflow, Some(file), warnings)
        }
        WorkflowSource::Loaded { workflow, path } => (*workflow, path, Vec::new()),
    };
    if let Browser::Attach { cdp_url } = &browser {
        statewright_chrome::endpoint_address(cdp_url)
            .map_err(|e| RunError::invalid("invalid_cdp_url", e.to_string()))?;
        statewright_chrome::check_authorities().map_err(|e| RunError::invalid("invalid_ca_cert", e))?;
    }
    let skills = load_skills(&workflow, path.as_deref(), skills_dir)?;
    if let Some(target) = &goal {
        crate::graph::check_goal(&workflow, target).map_err(|e| RunError::invalid("unknown_state", e))?;
    }
    let mut supplied = params;
    let site = match demo_site {
        Some(demo) => Some(serve_demo(&workflow, &demo, &mut supplied).await?),
        None => None,
    };
    let params = Params::bind(&workflow, &supplied).map_err(|e| RunError::invalid("invalid_params", e.to_string()))?;
    uploads_on_disk(&workflow, &params)?;
    let advisor = match (advisor, llm) {
        (Some(advisor), _) => Some(advisor),
        (None, Some(config)) => {
            let client =
                statewright_llm::Client::new(config).map_err(|e| RunError::environment("llm", e.to_string()))?;
            let advisor: Arc<dyn Advisor> =
                Arc::new(statewright_llm::LlmAdvisor::new(client, workflow.clone(), params.clone()));
            Some(advisor)
        }
        (None, None) => None,
    };
    let browser_label = browser_label(&workflow, &browser);
    let workflow_path = path.map(|p| std::path::absolute(&p).unwrap_or(p).to_string_lossy().into_owned());
    let store = open_store(&db).await?;
    let (store, handle, id, goal, began) = {
        let workflow_json = workflow_as_run(&workflow, &params);
        let parameters = json!(params.masked_values());
        let name = workflow.name.clone();
        let label = browser_label.clone();
        // The goal's planner knows the transitions of the runs before this one.
        let planned = goal.map(|target| (target, workflow.clone()));
        tokio::task::spawn_blocking(move || {
            let goal = planned.map(|(target, workflow)| {
                let runs = crate::graph::evidence(&store, &workflow.name);
                Goal { target, planner: Arc::new(crate::graph::planner(&workflow, &runs)) }
            });
            start_run(&store, &name, &workflow_json, &parameters, &label, workflow_path.as_deref())
                .map(|(handle, id)| (store, handle, id, goal, tokio::time::Instant::now()))
        })
        .await
        .map_err(|e| RunError::environment("store", e.to_string()))??
    };
    let run_dir = runs_dir.join(&id);
    Ok(PreparedRun {
        id,
        workflow,
        params,
        browser,
        browser_label,
        warnings,
        site,
        store,
        handle,
        db,
        run_dir,
        review,
        advisor,
        resume,
        goal,
        skills,
        chrome: None,
        began,
    })
}

/// Every file an `upload` gives is there, before the run starts: a mistyped path is the
/// user's to fix, not a failure halfway through a form. (A path made from a variable the run
/// reads is known only when the action runs, which checks it too.)
fn uploads_on_disk(workflow: &Workflow, params: &Params) -> Result<(), RunError> {
    for state in &workflow.states {
        for action in &state.actions {
            let Action::Upload { files, .. } = action else { continue };
            for file in files.iter().filter(|f| params.unset_reference(&json!(f)).is_none()) {
                let path = std::path::absolute(params.render(file)).unwrap_or_default();
                if !path.is_file() {
                    let shown = params.redact(&path.display().to_string());
                    let message = format!("state `{}` uploads {shown}, which is not a file", state.name);
                    return Err(RunError::invalid("missing_file", message));
                }
            }
        }
    }
    Ok(())
}

/// Serves the demo site and passes its address as `site`, unless the caller gave one.
async fn serve_demo(
    workflow: &Workflow,
    demo: &DemoSite,
    supplied: &mut Vec<(String, String)>,
) -> Result<SiteServer, RunError> {
    if !workflow.parameters.contains_key("site") {
        return Err(RunError::invalid(
            "demo_site",
            format!("the demo site is passed as the `site` parameter, but workflow `{}` declares none", workflow.name),
        ));
    }
    let site = match &demo.drift {
        Some(path) => Site::drifted(Site::Demo, path)
            .map_err(|e| RunError::invalid("drift", format!("{}: {e}", path.display())))?,
        None => Site::Demo,
    };
    let server = SiteServer::start(site, 0)
        .await
        .map_err(|e| RunError::environment("demo_site", format!("cannot serve the demo site: {e}")))?;
    if !supplied.iter().any(|(k, _)| k == "site") {
        supplied.push(("site".into(), server.url()));
    }
    Ok(server)
}

fn browser_label(workflow: &Workflow, browser: &Browser) -> String {
    let needs = needs(workflow);
    let page = match browser {
        Browser::Attach { .. } => "attached browser",
        Browser::Launch { headed: true } => "headed Chromium",
        Browser::Launch { headed: false } => "headless Chromium",
    };
    match (needs.browser, needs.desktop) {
        (false, _) => "desktop".to_owned(),
        (true, false) => page.to_owned(),
        (true, true) => format!("{page} + desktop"),
    }
}

async fn open_store(db: &Path) -> Result<Store, RunError> {
    let db = db.to_owned();
    tokio::task::spawn_blocking(move || Store::open(&db))
        .await
        .map_err(|e| RunError::environment("store", e.to_string()))?
        .map_err(|e| RunError::store(&e))
}

/// A sortable, unique run id: `20261122-051233-3f9a`.
fn new_run_id() -> String {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let digits: String = stamp.chars().filter(char::is_ascii_digit).collect();
    let (date, time) = digits.split_at(8.min(digits.len()));
    format!("{date}-{time}-{:04x}", fastrand::u16(..))
}

/// Records the run as started. Ids carry 16 random bits per second: on the rare clash with
/// another run, draw again.
pub(crate) fn start_run(
    store: &Store,
    workflow_name: &str,
    workflow_json: &str,
    parameters: &Value,
    browser: &str,
    workflow_path: Option<&str>,
) -> Result<(RunHandle, String), RunError> {
    let mut attempt = 0;
    loop {
        let id = new_run_id();
        let started =
            store.start_run(&NewRun { id: &id, workflow_name, workflow_json, parameters, browser, workflow_path });
        match started {
            Ok(handle) => return Ok((handle, id)),
            Err(e @ (StoreError::Sqlite { .. } | StoreError::Io { .. })) if attempt < 3 => {
                tracing::debug!("cannot start run {id}: {e}; trying another id");
                attempt += 1;
            }
            Err(e) => return Err(RunError::environment("store", format!("cannot record the run: {e}"))),
        }
    }
}

/// The workflow as run, as JSON, with the defaults of secret parameters masked.
fn workflow_as_run(workflow: &Workflow, params: &Params) -> String {
    let mut value = serde_json::to_value(workflow).unwrap_or(Value::Null);
    let masked = params.masked_values();
    if let Some(Value::Object(declared)) = value.get_mut("parameters") {
        for (name, declaration) in declared.iter_mut() {
            let secret = workflow.parameters.get(name).is_some_and(|p| p.secret);
            if secret && declaration.get("default").is_some() {
                declaration["default"] = json!(masked.get(name).cloned().unwrap_or_else(|| "********".into()));
            }
        }
    }
    value.to_string()
}

/// The skills the workflow uses (and theirs), checked against each `use_skill`.
fn load_skills(workflow: &Workflow, path: Option<&Path>, dir: Option<PathBuf>) -> Result<Skills, RunError> {
    if workflow.skills_used().is_empty() {
        return Ok(Skills::default());
    }
    let file = path.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from(format!("{}.json", workflow.name)));
    let dir = dir.or_else(|| statewright_workflow::skills::skills_dir_for(&file));
    statewright_workflow::skills::load_skills(workflow, &file, dir.as_deref())
        .map(Arc::new)
        .map_err(|d| RunError::invalid("invalid_skill", d.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_sort_by_time_and_carry_random_bits() {
        let id = new_run_id();
        assert_eq!(id.len(), "20261122-051233-3f9a".len(), "{id}");
        assert!(id[..8].chars().all(|c| c.is_ascii_digit()) && id.as_bytes()[8] == b'-', "{id}");
    }

    #[test]
    fn secret_defaults_are_masked_in_the_workflow_as_run() {
        let workflow: Workflow = serde_json::from_value(json!({
            "version": 1, "name": "w",
            "parameters": {"pw": {"secret": true, "default": "hunter2"}, "user": {"default": "ann"}},
            "states": [{"name": "done", "checks": [{"type": "url", "value": "about:blank"}],
                        "terminal": {"outcome": "success"}}]
        }))
        .unwrap();
        let params = Params::bind(&workflow, &[]).unwrap();
        let json = workflow_as_run(&workflow, &params);
        assert!(!json.contains("hunter2"), "{json}");
        assert!(json.contains("ann"), "non-secret defaults stay: {json}");
    }
}
