//! Files in and out of a run, as a user runs it on real Chromium and pages of one's own:
//! `upload` with the files as parameters (one that is not there refused before the run
//! starts, an empty list refused with its place in the file), and `download` into the run's
//! folder (a name that would leave it refused).

mod common;

use common::{Site, statewright, text};
use serde_json::{Value, json};

/// A workflow that applies on the fixture page with a résumé and photos, given as parameters.
fn application(dir: &std::path::Path) -> String {
    let workflow = json!({
        "version": 1,
        "name": "apply",
        "parameters": {"site": {}, "resume": {"description": "the résumé's file"}, "photo": {}},
        "states": [
            {"name": "received", "checks": [{"type": "text", "match": "contains", "value": "photos: photo.txt"}],
             "terminal": {"outcome": "success", "message": "the page has the files"}},
            {"name": "form", "checks": [{"type": "text", "value": "Apply"}], "actions": [
                {"type": "upload", "target": {"css": "#resume"}, "files": ["{{resume}}"]},
                {"type": "upload", "target": {"role": "button", "name": "Add photos"}, "files": ["{{photo}}"]}
            ]},
            {"name": "start", "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": "{{site}}/upload.html"}]}
        ]
    });
    let path = dir.join("apply.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn a_workflow_gives_its_parameters_files_to_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = Site::dir(&common::repo().join("crates/chrome/tests/fixtures"));
    let workflow = application(dir.path());
    let (resume, photo) = (dir.path().join("resume.txt"), dir.path().join("photo.txt"));
    std::fs::write(&resume, "Ada Lovelace, analyst\n").unwrap();
    std::fs::write(&photo, "not really a photo\n").unwrap();
    let params =
        [format!("site={}", site.1), format!("resume={}", resume.display()), format!("photo={}", photo.display())];
    let mut args = vec!["run", &workflow, "--json"];
    for p in &params {
        args.extend(["-p", p]);
    }
    let out = statewright(&args, &runs);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(summary["status"], "succeeded", "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("input#resume \"Résumé\" ← resume.txt"), "the action says what it gave: {stderr}");

    // The page read the file: its first line is on the last page the run saw.
    let shown = statewright(&["runs", "show", summary["run_id"].as_str().unwrap(), "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let last = detail["steps"].as_array().unwrap().last().cloned().unwrap_or_default();
    let page = last["page"]["text"].as_str().unwrap_or_default();
    assert!(page.contains("resume: resume.txt (22 bytes): Ada Lovelace, analyst"), "{last}");

    // A file that is not there is the user's to fix: refused before any browser starts.
    let missing = format!("resume={}", dir.path().join("resume.pdf").display());
    let out = statewright(&["run", &workflow, "-p", &params[0], "-p", &missing, "-p", &params[2]], &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(said.contains("state `form` uploads") && said.contains("resume.pdf, which is not a file"), "{said}");
}

#[test]
fn an_upload_with_no_file_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.json");
    let workflow = r##"{"version": 1, "name": "x", "states": [
  {"name": "form", "checks": [{"type": "text", "value": "Apply"}],
   "actions": [{"type": "upload", "target": {"css": "#resume"}, "files": []}]},
  {"name": "done", "checks": [{"type": "text", "value": "Thanks"}], "terminal": {"outcome": "success"}}
]}"##;
    std::fs::write(&path, workflow).unwrap();
    let out = statewright(&["validate", &path.display().to_string()], &dir.path().join("runs"));
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains("empty.json:3:") && said.contains("upload needs at least one file"), "{said}");
}

#[test]
fn a_download_lands_in_the_run_folder_under_the_name_the_workflow_gives() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = Site::dir(&common::repo().join("crates/chrome/tests/fixtures"));
    let workflow = |filename: &str| {
        json!({
            "version": 1,
            "name": "reports",
            "parameters": {"site": {}, "name": {"default": "march.csv"}},
            "states": [
                {"name": "done", "checks": [{"type": "url", "value": "about:blank#done"}],
                 "terminal": {"outcome": "success", "message": "downloaded"}},
                {"name": "reports", "checks": [{"type": "text", "value": "Reports"}], "actions": [
                    {"type": "download", "target": {"text": "Download the report"}, "filename": filename},
                    {"type": "navigate_to", "url": "about:blank#done"}
                ]},
                {"name": "start", "checks": [{"type": "url", "value": "about:blank"}],
                 "actions": [{"type": "navigate_to", "url": "{{site}}/download.html"}]}
            ]
        })
    };
    let path = dir.path().join("reports.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow("{{name}}")).unwrap()).unwrap();
    let file = path.display().to_string();
    let site_param = format!("site={}", site.1);
    let out = statewright(&["run", &file, "-p", &site_param, "--json"], &runs);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(summary["status"], "succeeded", "{}", text(&out.stderr));
    let kept = runs.join(summary["run_id"].as_str().unwrap()).join("march.csv");
    assert_eq!(std::fs::read_to_string(&kept).unwrap_or_default(), "month,sales\nMarch,42\n", "{}", kept.display());

    // A name from a parameter that would leave the run folder: refused before the run.
    let out = statewright(&["run", &file, "-p", &site_param, "-p", "name=../../escape.csv"], &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(!dir.path().join("escape.csv").exists() && !runs.join("escape.csv").exists());
    // And one written so in the file: refused with its place.
    std::fs::write(&path, serde_json::to_string_pretty(&workflow("../escape.csv")).unwrap()).unwrap();
    let out = statewright(&["validate", &file], &runs);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`../escape.csv` is not a plain file name"), "{}", text(&out.stderr));
}
