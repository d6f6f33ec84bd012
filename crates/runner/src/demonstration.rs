//! Recording a person's demonstration (`statewright record`, the app's *Record*): each act
//! with the page it was done on goes to the store as a step of a run, so the recording is a
//! trajectory like any run's (`runs show`, `runs export`, the run viewer); at the end it is
//! compiled into a draft workflow (merged into one that is already there).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};
use statewright_author::{CompileOptions, CompileReport, MergeReport};
use statewright_chrome::{Heard, LaunchOptions, Recording};
use statewright_demo::{Site, SiteServer};
use statewright_engine::{Cancel, Event, Observation, RunStatus};
use statewright_store::Store;
use statewright_workflow::params::{MASK, names_a_secret};
use statewright_workflow::{
    Action, Choices, Direction, MouseButton, Params, Target, Unwritable, Workflow, write_workflow_text,
};

use crate::book::Book;
use crate::error::RunError;
use crate::export::{Images, export};
use crate::request::Browser;

/// A navigation this soon after an act was that act's doing, not a typed address.
const CAUSED_WITHIN_MS: u128 = 2_000;

/// How late the act that led to a page may be told after the page's address: acts and
/// navigations are heard by two listeners, and a route a click's script takes comes at once.
const ACT_BEHIND_NAVIGATION: Duration = Duration::from_millis(100);

/// How long after a click the download it started may begin (a report the site builds
/// first), as a `download` action waits for it.
const DOWNLOAD_AFTER_CLICK: Duration = Duration::from_secs(10);

pub struct RecordRequest {
    /// The first page; `{{name}}` in it is filled from `params`.
    pub url: String,
    pub params: Vec<(String, String)>,
    pub browser: Browser,
    /// Serve the bundled demo site and pass its address as `site`.
    pub demo_site: bool,
    pub runs_dir: PathBuf,
    pub db: Option<PathBuf>,
    /// The draft's file: written, or merged into when it exists. Default: the run folder's
    /// `draft.json`.
    pub out: Option<PathBuf>,
    /// Stop when the page's URL matches this pattern.
    pub until_url: Option<regex::Regex>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RecordSummary {
    pub run_id: String,
    pub acts: usize,
    pub duration_ms: u64,
    /// Why the recording ended: `until_url`, `closed` or `stopped` (Ctrl+C).
    pub ended: String,
    pub draft: PathBuf,
    pub compiled: CompileReport,
    pub merged: Option<MergeReport>,
    pub run_dir: PathBuf,
}

/// What the shell hears while recording.
pub trait RecordObserver: Send {
    fn started(&mut self, run_id: &str, url: &str);
    fn act(&mut self, n: usize, action: &Action, description: Option<&str>);
}

pub async fn record(
    request: RecordRequest,
    cancel: Cancel,
    observer: &mut dyn RecordObserver,
) -> Result<RecordSummary, RunError> {
    let mut params = request.params.clone();
    let _site = match request.demo_site {
        true => {
            let server = SiteServer::start(Site::Demo, 0)
                .await
                .map_err(|e| RunError::environment("demo_site", format!("cannot serve the demo site: {e}")))?;
            if !params.iter().any(|(k, _)| k == "site") {
                params.push(("site".into(), server.url()));
            }
            Some(server)
        }
        false => None,
    };
    let url = fill(&request.url, &params);
    if url.contains("{{") {
        return Err(RunError::invalid(
            "url",
            format!("`{url}`: a parameter in it has no value (give it with --param)"),
        ));
    }
    // Where the draft goes, looked at before the person starts: a folder, a device or a link
    // to nothing given as `--out` was refused only once the whole demonstration was done.
    if let Some(out) = &request.out {
        statewright_workflow::writable_file(out).map_err(unwritable_out)?;
    }
    let db = request.db.clone().unwrap_or_else(|| Store::default_path(&request.runs_dir));
    let store = Store::open(&db).map_err(|e| RunError::store(&e))?;
    let placeholder = Workflow {
        version: statewright_workflow::FORMAT_VERSION,
        name: statewright_author::RECORDING.into(),
        description: format!("A person's demonstration, from {url}"),
        parameters: Default::default(),
        config: Default::default(),
        skill: None,
        states: Vec::new(),
    };
    let masked = Value::Object(params.iter().map(|(k, v)| (k.clone(), json!(mask_if_secret(k, v)))).collect());
    let label = match &request.browser {
        Browser::Attach { .. } => "attached browser (recording)",
        Browser::Launch { headed: true } => "headed Chromium (recording)",
        Browser::Launch { headed: false } => "headless Chromium (recording)",
    };
    let (mut handle, run_id) = crate::prepare::start_run(
        &store,
        statewright_author::RECORDING,
        &serde_json::to_string(&placeholder).unwrap_or_default(),
        &masked,
        label,
        None,
    )?;
    let options = match &request.browser {
        Browser::Attach { cdp_url } => LaunchOptions { cdp_url: Some(cdp_url.clone()), ..LaunchOptions::default() },
        Browser::Launch { headed } => LaunchOptions { headed: *headed, ..LaunchOptions::default() },
    };
    let mut recording = match Recording::start(&options).await {
        Ok(r) => r,
        Err(e) => {
            let _ = store.abort_run(handle, &e.to_string());
            return Err(if e.is_invalid_input() {
                RunError::invalid("cdp_url", e.to_string())
            } else {
                RunError::environment("browser", e.to_string())
            });
        }
    };
    observer.started(&run_id, &url);
    let began = Instant::now();
    // The values named like credentials, masked in the record and kept out of file names.
    let secrets = Params::masking(secret_values(&params));
    let mut book = Book::new(&store, &mut handle, began, secrets.clone(), "page");
    // The first act is the person's: opening the page.
    let blank = Observation {
        url: "about:blank".into(),
        title: String::new(),
        text: String::new(),
        elements: json!([]),
        ..Observation::default()
    };
    let opening = Action::NavigateTo { url: url.clone() };
    book.write(blank, &opening, None, Vec::new(), None)?;
    observer.act(1, &opening, None);
    if let Err(e) = recording.open(&url).await {
        drop(book);
        let _ = store.abort_run(handle, &e);
        recording.close().await;
        return Err(RunError::environment("browser", e));
    }
    let mut acts = 1;
    let mut last_act = Instant::now();
    let mut last_page: Option<Value> = None;
    // The last act, when it was a click: a download that begins soon after is its doing.
    let mut last_click: Option<Clicked> = None;
    // A download told before the click that started it (two listeners again).
    let mut unclaimed: Option<(String, Instant)> = None;
    // When the page reached `--until-url`: acts told just after are still taken.
    let mut reached: Option<Instant> = None;
    let ended = loop {
        let grace = reached.map(|at| tokio::time::Instant::from_std(at) + ACT_BEHIND_NAVIGATION);
        let (heard, heard_at) = tokio::select! {
            heard = recording.next() => heard.map_or((None, Instant::now()), |(heard, at)| (Some(heard), at)),
            () = cancel.cancelled() => break "stopped",
            () = sleep_until(grace) => break "until_url",
        };
        if let Some(at) = reached {
            // Only the act that led there: the person cannot act on the page that soon.
            match heard {
                Some(Heard::Act(_)) if heard_at <= at + ACT_BEHIND_NAVIGATION => {}
                _ => break "until_url",
            }
        } else if let Some(Heard::Navigated(to) | Heard::Routed(to) | Heard::WentBack { url: to, .. }) = &heard
            && request.until_url.as_ref().is_some_and(|r| r.is_match(to))
        {
            reached = Some(heard_at);
            continue;
        }
        // What was not the work of an act: that is the person's own.
        let own = heard_at.saturating_duration_since(last_act).as_millis() > CAUSED_WITHIN_MS;
        match heard {
            None | Some(Heard::Closed) => break "closed",
            // Only `--until-url` reads it: the acts replayed route the page again.
            Some(Heard::Routed(_)) => {}
            Some(Heard::Downloaded { url: from, name }) => {
                let name = download_name(&name, &secrets);
                match last_click.take().filter(|c| heard_at.saturating_duration_since(c.at) <= DOWNLOAD_AFTER_CLICK) {
                    Some(click) => {
                        acts += 1;
                        write_download(&mut book, click, name, acts, observer)?;
                    }
                    None => {
                        tracing::debug!("a download from {from} before its click, or with none");
                        unclaimed = Some((name, heard_at));
                    }
                }
            }
            Some(Heard::Navigated(to)) => {
                // An address typed into the bar.
                if own
                    && to != url
                    && !to.starts_with("about:")
                    && let Some(page) = &last_page
                {
                    let action = Action::NavigateTo { url: to.clone() };
                    book.write(observation(page), &action, None, Vec::new(), None)?;
                    acts += 1;
                    observer.act(acts, &action, None);
                }
            }
            Some(Heard::WentBack { url: _, from: (left, title) }) => {
                // Done on the page left, where the person did nothing: its address and title
                // are what is known of it. (A going back an act caused replays with the act.)
                // The act that led there may be told only now: a page kept in the browser's
                // cache sends its last report when it is shown again. The draft's checks, not
                // this order, decide where each act is replayed.
                if own {
                    let action = Action::GoBack {};
                    book.write(
                        Observation { url: left, title, ..Observation::default() },
                        &action,
                        None,
                        Vec::new(),
                        None,
                    )?;
                    acts += 1;
                    last_act = heard_at;
                    observer.act(acts, &action, None);
                }
            }
            Some(Heard::Switched { tab, closed, url: _ }) => {
                if let Some(page) = &last_page {
                    let action = Action::SwitchTab { tab, close: closed };
                    book.write(observation(page), &action, None, Vec::new(), None)?;
                    acts += 1;
                    last_act = heard_at;
                    observer.act(acts, &action, None);
                }
            }
            Some(Heard::Act(report)) => {
                let Some((action, alternatives)) = action_of(&report) else {
                    tracing::debug!(
                        "a report that is no action, left out: {}",
                        report.get("kind").unwrap_or(&serde_json::Value::Null)
                    );
                    continue;
                };
                let page = report.get("page").cloned().unwrap_or(Value::Null);
                let mut obs = observation(&page);
                obs.screenshot = recording.screenshot().await.map(Arc::new);
                let description = report.get("description").and_then(Value::as_str).map(str::to_owned);
                book.write(obs, &action, description.clone(), alternatives.clone(), None)?;
                acts += 1;
                last_act = heard_at;
                observer.act(acts, &action, description.as_deref());
                last_click = match action {
                    Action::Click { target, .. } => {
                        Some(Clicked { target, alternatives, page: page.clone(), at: heard_at })
                    }
                    _ => None,
                };
                last_page = Some(page);
                let early =
                    unclaimed.take().filter(|(_, at)| heard_at.saturating_duration_since(*at) <= ACT_BEHIND_NAVIGATION);
                if let Some((name, _)) = early
                    && let Some(click) = last_click.take()
                {
                    acts += 1;
                    write_download(&mut book, click, name, acts, observer)?;
                }
            }
        }
    };
    // Where it ended: the goal page, when the tab is still there to show it.
    if let Some(page) = recording.snapshot().await {
        let mut obs = observation(&page);
        obs.screenshot = recording.screenshot().await.map(Arc::new);
        book.observe(obs)?;
    }
    recording.close().await;
    let steps = book.step;
    let duration_ms = began.elapsed().as_millis() as u64;
    drop(book);
    let finished = Event::RunFinished {
        status: RunStatus::Succeeded,
        end_state: None,
        outcome: None,
        message: format!("recorded {acts} acts; ended: {ended}"),
        failure: None,
        duration_ms,
        steps,
        actions: acts as u32,
        outputs: Default::default(),
    };
    store.record(&mut handle, &finished).map_err(|e| RunError::environment("store", e.to_string()))?;
    drop(handle);
    let run_dir = request.runs_dir.join(&run_id);
    export(&store, &run_id, &run_dir, Images::AsStored).map_err(|e| RunError::environment("export", e.to_string()))?;
    let draft_path = request.out.clone().unwrap_or_else(|| run_dir.join("draft.json"));
    let (compiled, merged) = write_draft(&store, &run_id, &draft_path, &params)?;
    Ok(RecordSummary { run_id, acts, duration_ms, ended: ended.into(), draft: draft_path, compiled, merged, run_dir })
}

/// A click, kept until the next act: the download it starts turns it into a `download`.
struct Clicked {
    target: Target,
    alternatives: Vec<Target>,
    page: Value,
    at: Instant,
}

/// Writes the download `click` started, through the same element, as act `n`. Compile folds
/// the click into it, as it folds the click that opened a file chooser into the upload.
fn write_download(
    book: &mut Book,
    click: Clicked,
    filename: String,
    n: usize,
    observer: &mut dyn RecordObserver,
) -> Result<(), RunError> {
    let action = Action::Download { target: click.target, filename, timeout: None };
    book.write(observation(&click.page), &action, None, click.alternatives, None)?;
    observer.act(n, &action, None);
    Ok(())
}

/// The name the draft keeps a download under: the site's, as a plain file name with no
/// parameter in it (and no secret of the person's, however the site encoded it: `secret`
/// stands for it, as the mask would be an odd file name).
fn download_name(suggested: &str, secrets: &Params) -> String {
    let name = secrets.redact_as(suggested.trim(), "secret");
    let name = name.replace(['{', '}'], "_").trim_start_matches('.').to_owned();
    match statewright_workflow::params::is_plain_file_name(&name) {
        true => name,
        false => "download".to_owned(),
    }
}

/// Sleeps until `deadline`, or for ever without one.
async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// Compiles the recording; merges it into the draft at `path` when there is one.
fn write_draft(
    store: &Store,
    run_id: &str,
    path: &Path,
    params: &[(String, String)],
) -> Result<(CompileReport, Option<MergeReport>), RunError> {
    let trajectory =
        statewright_author::from_run(store, run_id).map_err(|e| RunError::environment("compile", e.to_string()))?;
    let options =
        CompileOptions { name: None, parameters: params.iter().filter(|(k, _)| !names_a_secret(k)).cloned().collect() };
    let draft = statewright_author::compile(&trajectory, &options);
    let (text, merged) = statewright_author::draft_text(&draft, Some(path), &options.parameters)
        .map_err(|d| RunError::invalid("out", format!("cannot merge into it:\n{d}")))?;
    write_workflow_text(path, &text).map_err(unwritable_out)?;
    Ok((draft.report, merged))
}

/// A link to nothing or a folder is the person's `--out` to fix; a failed write is not.
fn unwritable_out(e: Unwritable) -> RunError {
    match e {
        Unwritable::Io { .. } => RunError::environment("out", e.to_string()),
        _ => RunError::invalid("out", e.to_string()),
    }
}

fn observation(page: &Value) -> Observation {
    let text = |k: &str| page.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    Observation {
        url: text("url"),
        title: text("title"),
        text: text("text"),
        elements: page.get("elements").cloned().unwrap_or(json!([])),
        ..Observation::default()
    }
}

/// A reported act as a typed action, validated like any: what does not parse is dropped.
fn action_of(report: &Value) -> Option<(Action, Vec<Target>)> {
    let target = || serde_json::from_value::<Target>(report.get("target")?.clone()).ok();
    let alternatives: Vec<Target> = report
        .get("alternatives")
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(|t| serde_json::from_value(t.clone()).ok()).collect())
        .unwrap_or_default();
    let s = |k: &str| report.get(k).and_then(Value::as_str).map(str::to_owned);
    let action = match report.get("kind")?.as_str()? {
        "click" => Action::Click {
            target: target()?,
            button: match s("button").as_deref() {
                Some("right") => MouseButton::Right,
                Some("middle") => MouseButton::Middle,
                _ => MouseButton::Left,
            },
            count: report.get("count").and_then(Value::as_u64).unwrap_or(1).clamp(1, 3) as u32,
            position: None,
        },
        "type" => {
            let secret = report.get("secret").and_then(Value::as_bool) == Some(true);
            Action::Type { target: target()?, text: if secret { MASK.to_owned() } else { s("text")? }, clear: true }
        }
        "check" => {
            Action::Check { target: target()?, checked: report.get("checked").and_then(Value::as_bool).unwrap_or(true) }
        }
        "drag" => Action::Drag {
            target: target()?,
            to: serde_json::from_value(report.get("to")?.clone()).ok()?,
            position: report.get("position").and_then(|p| serde_json::from_value(p.clone()).ok()),
        },
        // A native select's choice by its value; a drawn list's by the option's name; a
        // `<select multiple>`'s by the labels of every option chosen, a list even of one.
        "select" => match (s("value"), report.get("label").unwrap_or(&Value::Null)) {
            (Some(value), _) => Action::SelectOption { target: target()?, value: Some(value.into()), label: None },
            (None, Value::String(label)) => {
                Action::SelectOption { target: target()?, value: None, label: Some(label.as_str().into()) }
            }
            (None, Value::Array(labels)) => {
                let labels: Option<Vec<String>> = labels.iter().map(|l| l.as_str().map(str::to_owned)).collect();
                let labels = labels.filter(|l| !l.is_empty())?;
                Action::SelectOption { target: target()?, value: None, label: Some(Choices::Many(labels)) }
            }
            (None, _) => return None,
        },
        // The files by name only (a page never knows where they were): compile asks for them.
        "upload" => {
            let names = report.get("files").and_then(Value::as_array)?;
            let files: Vec<String> =
                names.iter().filter_map(Value::as_str).filter(|n| !n.trim().is_empty()).map(str::to_owned).collect();
            if files.is_empty() {
                return None;
            }
            Action::Upload { target: target()?, files }
        }
        "key" => {
            let key = s("key")?;
            statewright_workflow::keys::parse_key_combo(&key).ok()?;
            Action::PressKey { key }
        }
        "scroll" => {
            let dy = report.get("dy").and_then(Value::as_i64)?;
            let direction = if dy < 0 { Direction::Up } else { Direction::Down };
            Action::Scroll { direction, amount: dy.unsigned_abs().min(100_000) as u32, target: None }
        }
        _ => return None,
    };
    Some((action, alternatives))
}

fn fill(template: &str, params: &[(String, String)]) -> String {
    params.iter().fold(template.to_owned(), |s, (k, v)| s.replace(&format!("{{{{{k}}}}}"), v))
}

/// Parameters named like secrets are kept out of the store and the draft's defaults.
fn mask_if_secret(name: &str, value: &str) -> String {
    if names_a_secret(name) { MASK.to_owned() } else { value.to_owned() }
}

fn secret_values(params: &[(String, String)]) -> Vec<String> {
    params.iter().filter(|(k, v)| names_a_secret(k) && !v.is_empty()).map(|(_, v)| v.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::{action_of, download_name};
    use serde_json::json;
    use statewright_workflow::{Action, Choices, Params};

    #[test]
    fn a_select_multiples_report_is_a_choice_of_its_labels_as_a_list() {
        let chose = |extra: serde_json::Value| {
            let mut report = json!({"kind": "select", "target": {"css": "#people"}});
            report.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            action_of(&report).map(|(action, _)| action)
        };
        let label = |action: Option<Action>| match action {
            Some(Action::SelectOption { value: None, label, .. }) => label,
            other => panic!("{other:?}"),
        };
        let several = label(chose(json!({"label": ["Leia", "Leia, Yoda"]})));
        assert_eq!(several, Some(Choices::Many(vec!["Leia".into(), "Leia, Yoda".into()])));
        assert_eq!(label(chose(json!({"label": ["Yoda"]}))), Some(Choices::Many(vec!["Yoda".into()])));
        assert_eq!(label(chose(json!({"label": "Medium"}))), Some(Choices::One("Medium".into())));
        match chose(json!({"value": "2", "label": "Two"})) {
            Some(Action::SelectOption { value: Some(Choices::One(v)), label: None, .. }) => assert_eq!(v, "2"),
            other => panic!("{other:?}"),
        }
        assert_eq!(chose(json!({"label": []})), None, "no option chosen is no act");
        assert_eq!(chose(json!({"label": ["Leia", 3]})), None);
    }

    #[test]
    fn a_downloads_name_is_a_plain_file_name_without_parameters_or_secrets() {
        let secrets = Params::masking(vec!["hunter2".to_owned(), "p@ss/w&rd".to_owned()]);
        assert_eq!(download_name("sales-2026.csv", &secrets), "sales-2026.csv");
        assert_eq!(download_name("statement-hunter2.pdf", &secrets), "statement-secret.pdf");
        // Encoded by the site, once, twice or as HTML: neither the secret nor a `/` of it.
        for suggested in ["p%40ss%2Fw%26rd.csv", "p%2540ss%252Fw%2526rd.csv", "p@ss%2Fw&amp;rd.csv", "hunter%32.csv"] {
            assert_eq!(download_name(suggested, &secrets), "secret.csv", "{suggested}");
        }
        assert_eq!(download_name("{{site}}.csv", &secrets), "__site__.csv");
        assert_eq!(download_name(".bashrc", &secrets), "bashrc");
        assert_eq!(download_name("  ", &secrets), "download");
    }
}
