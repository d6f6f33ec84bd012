//! `statewright record` as a user uses it, on real Chromium: a person's purchase on the
//! demo site, driven with real input events (`fixtures/person.mjs`: playwright-core's mouse
//! and keyboard, through the DevTools protocol's Input domain) in the tab the recorder
//! opened, becomes a run and a draft workflow that replays on other seeds with no model.

mod common;

use std::process::{Child, Stdio};

use common::{Browser, Site, command, statewright, text};
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery staple";
const PRODUCT: &str = "Stainless steel kettle";

#[test]
fn a_recorded_purchase_compiles_to_a_draft_that_replays_on_other_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let draft = dir.path().join("draft.json");
    let site = Site::start();
    let browser = Browser::start(&dir.path().join("profile"));
    let site_param = format!("site={}", site.1);
    let draft_arg = draft.display().to_string();
    // Seed 1 shows the "What's new" interstitial after signing in and the consent popup on
    // the search page: one demonstration of everything the site can throw.
    let args = [
        "record",
        "{{site}}/?seed={{seed}}",
        "--cdp-url",
        &browser.1,
        "-p",
        &site_param,
        "-p",
        "seed=1",
        "-p",
        &format!("product={PRODUCT}"),
        "-p",
        "quantity=2",
        "-p",
        "username=demo",
        // The demo's sign-in page shows its password: given as a secret, it is masked.
        "-p",
        &format!("password={PASSWORD}"),
        "--until-url",
        r"confirmation\.html",
        "--out",
        &draft_arg,
        "--json",
    ];
    let log = dir.path().join("record.log");
    let log_text = || std::fs::read_to_string(&log).unwrap_or_default();
    let recorder = record_while(&args, &runs, &log, "person.mjs", &[&browser.1, &site.1, PASSWORD, PRODUCT]);
    let out = ended(recorder, &log);
    let stderr = log_text();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["ended"], "until_url", "{summary}");
    let acts = summary["acts"].as_u64().unwrap();
    assert!(
        acts >= 11,
        "open, sign-in link, 2 fields, sign in, skip, product, option, search, add, quantity, order, consent: {stderr}"
    );

    // The trajectory is a run like any: every act a step with its page and screenshot.
    let run_id = summary["run_id"].as_str().unwrap();
    let shown = statewright(&["runs", "show", run_id, "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let steps = detail["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, acts + 1, "one step per act and the page it ended on");
    // A screenshot taken while the page is being replaced can fail; nearly all are there.
    let shots = steps[1..].iter().filter(|s| s["screenshot"].is_string()).count();
    assert!(shots * 10 >= (steps.len() - 1) * 9, "{shots} screenshots for {} pages", steps.len() - 1);
    let kinds: Vec<&str> = detail["actions"].as_array().unwrap().iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[0], "navigate_to");
    assert_eq!(kinds.iter().filter(|k| **k == "type").count(), 3, "username, password, product: {kinds:?}");

    // The draft: states recognised by checks, literals as parameters, the password secret.
    let workflow: Value = serde_json::from_str(&std::fs::read_to_string(&draft).unwrap()).unwrap();
    let states = workflow["states"].as_array().unwrap();
    let interrupts: Vec<&Value> = states.iter().filter(|s| s["interrupt"] == true).collect();
    assert_eq!(interrupts.len(), 1, "the consent popup is an interrupt: {workflow}");
    assert!(states.iter().any(|s| s["terminal"]["outcome"] == "success"));
    let params = &workflow["parameters"];
    assert_eq!(params["password"]["secret"], true, "{params}");
    assert!(params["password"].get("default").is_none());
    for name in ["site", "seed", "product", "quantity", "username"] {
        assert!(params.get(name).is_some(), "{name} is a parameter: {params}");
    }
    let draft_text = std::fs::read_to_string(&draft).unwrap();
    assert!(draft_text.contains("{{product}}"), "the product typed and clicked is the parameter");
    let validate = statewright(&["validate", &draft_arg], &runs);
    assert_eq!(validate.status.code(), Some(0), "{}", text(&validate.stderr));

    // The password was typed into a password field: it is nowhere.
    for entry in walk(dir.path()) {
        let bytes = std::fs::read(&entry).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(PASSWORD), "{} holds the password", entry.display());
    }

    // Replays on other seeds, with no model: the consent popup comes at other moments.
    let password = format!("password={PASSWORD}");
    for seed in ["2", "4", "7"] {
        let seed_param = format!("seed={seed}");
        let out = statewright(&["run", &draft_arg, "--demo-site", "-p", &seed_param, "-p", &password, "--json"], &runs);
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(summary["status"], "succeeded", "seed {seed}: {}", text(&out.stderr));
        assert_eq!(summary["llm_calls"], 0);
    }
}

#[test]
fn a_demonstration_that_goes_back_to_a_tab_records_the_switch_and_replays() {
    let recorded = record_fixture("tabs-voucher.html", "tabs-person.mjs", None);
    let workflow = &recorded.workflow;
    let actions = actions(workflow);
    let kinds: Vec<&str> = actions.iter().map(|a| a["type"].as_str().unwrap()).collect();
    let switched = kinds
        .iter()
        .position(|k| *k == "switch_tab")
        .unwrap_or_else(|| panic!("no switch_tab in {kinds:?}: {workflow}"));
    assert!(
        kinds[..switched].contains(&"click") && kinds[switched..].contains(&"type"),
        "opened the code's tab, went back, typed: {kinds:?}"
    );
    assert_eq!(*actions[switched], serde_json::json!({"type": "switch_tab"}), "back to the tab before");

    // The draft replays, no model: the code's tab opens, the run goes back and redeems.
    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
}

#[test]
fn a_demonstration_that_goes_back_records_go_back_and_replays_it() {
    let recorded = record_fixture("back-list.html", "back-person.mjs", Some("back-done"));
    assert_goes_back_and_replays(&recorded, "back-list.html", "/back-item.html");
}

#[test]
fn a_demonstration_in_a_single_page_application_records_its_back_button_and_replays_it() {
    // The order is a route of the same document: no new page loads, going there or back.
    // Routers keep their routes in the path (history.pushState) or in the fragment.
    for (page, until, item) in
        [("spa-orders.html", "/spa/done", "/spa/orders/7"), ("spa-orders.html?hash", "#/done", "#/orders/7")]
    {
        let recorded = record_fixture(page, "back-person.mjs", Some(until));
        assert_goes_back_and_replays(&recorded, page, item);
        // The recording ended at the route `--until-url` names, with the click that led there.
        let finished =
            actions(&recorded.workflow).iter().any(|a| a["type"] == "click" && a["target"]["name"] == "Finish");
        assert!(finished, "Finish was clicked: {}", recorded.workflow);
    }
}

#[test]
fn a_demonstration_with_files_asks_for_them_and_replays_with_those_given() {
    let recorded = record_fixture("upload.html", "upload-person.mjs", None);
    let workflow = &recorded.workflow;
    let uploads: Vec<&Value> = actions(workflow).into_iter().filter(|a| a["type"] == "upload").collect();
    // The résumé in its own field; the photos through the button that opened their chooser,
    // whose click is part of the upload, not an action of its own.
    let resume = uploads.iter().find(|a| a["target"]["css"] == "#resume").unwrap_or_else(|| panic!("{workflow}"));
    assert_eq!(resume["files"], serde_json::json!(["{{resume}}"]), "named after its field: {workflow}");
    let photos = uploads.iter().find(|a| a["target"]["name"] == "Add photos").unwrap_or_else(|| panic!("{workflow}"));
    assert_eq!(photos["files"], serde_json::json!(["{{add_photos}}", "{{add_photos_2}}"]), "{workflow}");
    assert!(!actions(workflow).iter().any(|a| a["type"] == "click"), "no click of its own: {workflow}");
    // The page knew the files by name only: their paths are the user's to give.
    let asked = &workflow["parameters"]["add_photos_2"];
    assert!(asked.get("default").is_none() && asked["description"].as_str().unwrap().contains("hills.txt"), "{asked}");
    let without = recorded.replay(&[]);
    assert!(without.as_str().is_some_and(|said| said.contains("resume")), "the run asks for the files: {without}");

    // Given files of the same names from elsewhere, the draft replays with no model.
    let dir = tempfile::tempdir().unwrap();
    let given: Vec<String> = [("resume", "cv.txt"), ("add_photos", "beach.txt"), ("add_photos_2", "hills.txt")]
        .iter()
        .map(|(param, name)| {
            let path = dir.path().join(name);
            std::fs::write(&path, format!("{name} again\n")).unwrap();
            format!("{param}={}", path.display())
        })
        .collect();
    let summary = recorded.replay(&given);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
}

#[test]
fn a_demonstration_that_sets_boxes_records_their_states_and_replays() {
    let recorded = record_fixture("check.html", "check-person.mjs", None);
    let workflow = &recorded.workflow;
    let checks: Vec<&Value> = actions(workflow).into_iter().filter(|a| a["type"] == "check").collect();
    assert_eq!(checks.len(), 4, "newsletter, remember me, dark mode, milk: {workflow}");
    assert!(!actions(workflow).iter().any(|a| a["type"] == "click"), "no plain click: {workflow}");
    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
    assert_eq!(recorded.kinds_done(&summary), ["navigate_to", "check", "check", "check", "check"], "{summary}");
}

#[test]
fn a_demonstration_that_chooses_from_drawn_lists_records_the_choices_and_replays() {
    let recorded = record_fixture("listbox.html", "listbox-person.mjs", None);
    let workflow = &recorded.workflow;
    let chosen: Vec<(&Value, &Value)> = actions(workflow)
        .into_iter()
        .filter(|a| a["type"] == "select_option")
        .map(|a| (&a["target"]["name"], &a["label"]))
        .collect();
    assert_eq!(chosen, [(&json!("Size Choose"), &json!("Medium")), (&json!("Fit"), &json!("Slim"))], "{workflow}");
    assert!(!actions(workflow).iter().any(|a| a["type"] == "click"), "the clicks that opened them go: {workflow}");
    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
    assert_eq!(recorded.kinds_done(&summary), ["navigate_to", "select_option", "select_option"], "{summary}");
}

#[test]
fn a_demonstration_that_drags_a_card_and_a_slider_records_both_drags_and_replays_them() {
    let recorded = record_fixture("drag.html", "drag-person.mjs", None);
    let workflow = &recorded.workflow;
    let drags: Vec<&Value> = actions(workflow).into_iter().filter(|a| a["type"] == "drag").collect();
    assert_eq!(drags.len(), 2, "{workflow}");
    assert_eq!(drags[0]["to"], serde_json::json!({"role": "heading", "name": "Done"}), "{workflow}");
    // The slider's handle, let go three quarters along its track.
    assert_eq!(drags[1]["target"], serde_json::json!({"role": "slider", "name": "Volume"}), "{workflow}");
    assert_eq!(drags[1]["position"]["x"], 0.75, "{workflow}");
    assert!(!actions(workflow).iter().any(|a| a["type"] == "click"), "no click of its own: {workflow}");
    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
}

#[test]
fn a_demonstration_that_downloads_replays_into_the_run_folder() {
    let recorded = record_fixture("download.html", "download-person.mjs", None);
    let workflow = &recorded.workflow;
    // Each click that started a download is part of it, not an action of its own.
    let downloads: Vec<&Value> = actions(workflow).into_iter().filter(|a| a["type"] == "download").collect();
    let named: Vec<&str> = downloads.iter().filter_map(|a| a["filename"].as_str()).collect();
    assert_eq!(named, ["report.csv", "export.csv"], "the site's names, in order: {workflow}");
    assert_eq!(downloads[1]["target"]["name"], "Export", "through the button clicked: {workflow}");
    assert!(!actions(workflow).iter().any(|a| a["type"] == "click"), "no click of its own: {workflow}");

    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
    let run = recorded.runs.join(summary["run_id"].as_str().unwrap());
    let kept: Vec<_> = std::fs::read_dir(&run).unwrap().flatten().map(|f| f.file_name()).collect();
    let report = std::fs::read_to_string(run.join("report.csv")).unwrap_or_default();
    assert!(report.starts_with("month,sales"), "the server's report, in the run folder: {kept:?}");
    let export = std::fs::read_to_string(run.join("export.csv")).unwrap_or_default();
    assert_eq!(export, "name,total\nAda,3\n", "the page's export, in the run folder");
}

#[test]
fn a_demonstration_in_frames_from_another_site_is_heard_and_replays() {
    let recorded = record_fixture("frames-checkout.html", "frames-person.mjs", None);
    let workflow = &recorded.workflow;
    let acted: Vec<&Value> = actions(workflow);
    let named = |kind: &str, name: &str| acted.iter().any(|a| a["type"] == kind && a["target"]["name"] == name);
    // The banner's button and the card's fields are in frames the page's script cannot see.
    assert!(named("click", "Accept all"), "{workflow}");
    assert!(named("type", "Card number") && named("select_option", "Expiry month"), "{workflow}");
    assert!(named("click", "Pay"), "{workflow}");

    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
}

/// The order's page was left with the Back button, from a state of its own, and the draft
/// replays with no model: through the order at `item` and back to the list at `list`.
/// An `--out` that cannot take the draft (a folder, a device, a link to nothing) is refused
/// before the browser opens: it was refused only when the person ended the demonstration,
/// after all their acts.
#[test]
fn an_out_that_cannot_take_the_draft_is_refused_before_the_recording_starts() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let link = dir.path().join("gone.json");
    std::os::unix::fs::symlink(dir.path().join("nowhere.json"), &link).unwrap();
    for out in [dir.path().to_path_buf(), "/dev/null".into(), link] {
        let args = ["record", "about:blank", "--headless", "--out", out.to_str().unwrap()];
        let (code, stderr) = common::in_time(&args, &runs);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(out.to_str().unwrap()) && stderr.contains("nothing was written"), "{stderr}");
        assert!(!stderr.contains("recording:"), "no recording started: {stderr}");
    }
    assert!(!runs.exists(), "no run was stored");
}

fn assert_goes_back_and_replays(recorded: &Recorded, list: &str, item: &str) {
    let workflow = &recorded.workflow;
    let opened = actions(workflow).iter().filter(|a| a["type"] == "navigate_to").count();
    assert_eq!(opened, 1, "only the opening, no address typed: {workflow}");
    let back = workflow["states"].as_array().unwrap().iter().find(|s| s["actions"][0]["type"] == "go_back");
    let back = back.unwrap_or_else(|| panic!("the Back button, from a state of its own: {workflow}"));
    let address = back["checks"][0]["value"].as_str().unwrap_or_default();
    // The order's page, by its address (made a pattern where it carries an id).
    assert!(address.starts_with("{{site}}") || address.starts_with("^{{site}}"), "{workflow}");
    assert!(address.contains(item.trim_end_matches(char::is_numeric)), "the order's page: {workflow}");

    let summary = recorded.replay(&[]);
    assert_eq!(summary["status"], "succeeded", "{summary}\n{workflow}");
    let shown = statewright(&["runs", "show", summary["run_id"].as_str().unwrap(), "--json"], &recorded.runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let urls: Vec<&str> = detail["steps"].as_array().unwrap().iter().filter_map(|s| s["url"].as_str()).collect();
    let at = urls.iter().position(|u| u.ends_with(item)).expect("the order was opened");
    assert!(urls[at + 1].ends_with(list), "and left by going back: {urls:?}");
}

/// A demonstration on a fixture page, compiled into a draft.
struct Recorded {
    runs: std::path::PathBuf,
    draft: String,
    site_param: String,
    workflow: Value,
    _dir: tempfile::TempDir,
    _site: Site,
}

impl Recorded {
    /// The kinds of the actions a replay whose summary is `summary` did, in order.
    fn kinds_done(&self, summary: &Value) -> Vec<String> {
        let shown = statewright(&["runs", "show", summary["run_id"].as_str().unwrap(), "--json"], &self.runs);
        let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
        detail["actions"].as_array().unwrap().iter().filter_map(|a| a["kind"].as_str().map(str::to_owned)).collect()
    }

    /// The draft run with no model and no person, on the site it was recorded on (and
    /// `params`): its JSON summary.
    fn replay(&self, params: &[String]) -> Value {
        let mut args = vec!["run", &self.draft, "-p", &self.site_param, "--no-review", "--json"];
        for p in params {
            args.extend(["-p", p]);
        }
        let out = statewright(&args, &self.runs);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| Value::String(text(&out.stderr)))
    }
}

/// Records `page` of the chrome crate's fixtures while `person` (a script in this crate's
/// fixtures, given the browser, the site and `page`) acts in the browser; the recording ends
/// at an address matching `until` or,
/// without one, as with Ctrl+C once the person is done.
fn record_fixture(page: &str, person: &str, until: Option<&str>) -> Recorded {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = Site::dir(&common::repo().join("crates/chrome/tests/fixtures"));
    let browser = Browser::start(&dir.path().join("profile"));
    let site_param = format!("site={}", site.1);
    let draft = dir.path().join("draft.json").display().to_string();
    let start = format!("{{{{site}}}}/{page}");
    let mut args = vec!["record", &start, "--cdp-url", &browser.1, "-p", &site_param, "--out", &draft, "--json"];
    if let Some(until) = until {
        args.extend(["--until-url", until]);
    }
    let log = dir.path().join("record.log");
    let recorder = record_while(&args, &runs, &log, person, &[&browser.1, &site.1, page]);
    if until.is_none() {
        std::thread::sleep(std::time::Duration::from_millis(500));
        // SAFETY: signalling our own child process.
        unsafe { libc::kill(recorder.id() as i32, libc::SIGTERM) };
    }
    let out = ended(recorder, &log);
    assert_eq!(out.status.code(), Some(0), "{}", std::fs::read_to_string(&log).unwrap_or_default());
    let workflow = serde_json::from_str(&std::fs::read_to_string(&draft).unwrap()).unwrap();
    Recorded { runs, draft, site_param, workflow, _dir: dir, _site: site }
}

/// Every action of a draft, state by state.
fn actions(workflow: &Value) -> Vec<&Value> {
    workflow["states"].as_array().unwrap().iter().flat_map(|s| s["actions"].as_array().into_iter().flatten()).collect()
}

/// Starts `statewright record` with `args` (its log to `log`) while a person's script
/// (`fixtures/SCRIPT` with `person` for arguments) acts in the browser; returns the recorder,
/// still running, once the person is done.
fn record_while(args: &[&str], runs: &std::path::Path, log: &std::path::Path, script: &str, person: &[&str]) -> Child {
    let recorder =
        command(args, runs).stdout(Stdio::piped()).stderr(std::fs::File::create(log).unwrap()).spawn().unwrap();
    let done = std::process::Command::new("node")
        .arg(common::repo().join("crates/cli/tests/fixtures").join(script))
        .args(person)
        .current_dir(common::repo())
        .output()
        .expect("node runs");
    let recorded = std::fs::read_to_string(log).unwrap_or_default();
    assert!(done.status.success(), "the person's script: {}\nthe recorder: {recorded}", text(&done.stderr));
    recorder
}

/// The recorder's output once it ended, as it should soon after the person is done: a
/// recording that missed its end fails the test instead of holding it up.
fn ended(mut recorder: Child, log: &std::path::Path) -> std::process::Output {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while recorder.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = recorder.kill();
            panic!("the recording did not end: {}", std::fs::read_to_string(log).unwrap_or_default());
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    recorder.wait_with_output().unwrap()
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if !path.ends_with("profile") {
                out.extend(walk(&path));
            }
        } else {
            out.push(path);
        }
    }
    out
}
