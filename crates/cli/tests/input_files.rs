//! Input files named on the command line that are not files to read, through the real
//! binary: a named pipe (which blocked a batch for ever, waiting for a writer), a device
//! (`/dev/zero`, read until memory ran out) and a folder are each refused at once, exit 2,
//! with the file and what it is named; as workflow files already were.

mod common;

use common::{fifo, in_time, write_workflow};
use serde_json::json;

/// A workflow of one parameter, `q`, done at once: what batch data and pool files feed.
fn one_parameter_workflow(dir: &std::path::Path) -> std::path::PathBuf {
    write_workflow(
        dir,
        &json!({"version": 1, "name": "w", "parameters": {"q": {}},
            "states": [{"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                        "terminal": {"outcome": "success"}}]}),
    )
}

#[test]
fn batch_data_and_pool_files_that_are_no_regular_file_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = one_parameter_workflow(dir.path());
    let pipe = dir.path().join("rows.csv");
    fifo(&pipe);
    let zero = dir.path().join("zero.csv");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let folder = dir.path().join("folder.json");
    std::fs::create_dir(&folder).unwrap();
    let good = dir.path().join("good.csv");
    std::fs::write(&good, "q\nA\n").unwrap();

    let workflow = workflow.to_str().unwrap();
    for (data, what) in [(&pipe, "a named pipe (FIFO)"), (&zero, "a device"), (&folder, "a folder")] {
        let (code, stderr) = in_time(&["batch", workflow, "--data", data.to_str().unwrap()], &runs);
        assert_eq!(code, Some(2), "{stderr}");
        let said = format!("{}: the data file is {what}, not a regular file", data.display());
        assert!(stderr.contains(&said), "{stderr}");
    }
    for (pool, what) in [(&pipe, "a named pipe (FIFO)"), (&zero, "a device")] {
        let args = ["batch", workflow, "--data", good.to_str().unwrap(), "--pool", pool.to_str().unwrap()];
        let (code, stderr) = in_time(&args, &runs);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(&format!("the pool file is {what}, not a regular file")), "{stderr}");
    }
}

#[test]
fn a_results_table_settings_file_certificate_or_skill_file_that_is_a_pipe_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // The tests' settings folder (see `common::command`), its llm.json a pipe: every command
    // that looks for a model reads it first.
    let config = runs.join("no-config");
    std::fs::create_dir_all(&config).unwrap();
    fifo(&config.join("llm.json"));
    let (code, stderr) = in_time(&["agent", "--goal", "x", "--url", "http://127.0.0.1:9/"], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("llm.json: the settings file is a named pipe (FIFO), not a regular file"), "{stderr}");

    // A model configured, its certificate authorities a pipe: refused before any call.
    std::fs::remove_file(config.join("llm.json")).unwrap();
    let ca = dir.path().join("ca.pem");
    fifo(&ca);
    let settings = json!({"url": "https://127.0.0.1:9/v1", "model": "m", "ca_cert": ca});
    std::fs::write(config.join("llm.json"), settings.to_string()).unwrap();
    let (code, stderr) = in_time(&["agent", "--goal", "x", "--url", "http://127.0.0.1:9/"], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the certificate file is a named pipe (FIFO), not a regular file"), "{stderr}");

    // The judge's results table: a pipe is the person's to move (exit 2, not 1).
    let settings = json!({"url": "http://127.0.0.1:9/v1", "model": "m"});
    std::fs::write(config.join("llm.json"), settings.to_string()).unwrap();
    let results = dir.path().join("tasks.results.json");
    fifo(&results);
    let (code, stderr) = in_time(&["judge", results.to_str().unwrap()], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the results table is a named pipe (FIFO), not a regular file"), "{stderr}");

    // A seed 003 skill folder whose actions.json is a pipe.
    let export = dir.path().join("export");
    let skill = export.join("001-sign-in");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), "---\nname: sign-in\ndescription: Sign in\n---\nSign in.\n").unwrap();
    fifo(&skill.join("actions.json"));
    let skills = dir.path().join("skills");
    let args = ["skills", "import", export.to_str().unwrap(), "--skills", skills.to_str().unwrap()];
    let (code, stderr) = in_time(&args, &runs);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the skill file is a named pipe (FIFO), not a regular file"), "{stderr}");
}

#[test]
fn a_drift_file_or_a_served_page_that_is_a_pipe_or_a_device_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // The pipe first: read as before, it hung `demo-site` (and `run --demo-site`) for ever.
    let drift = dir.path().join("drift.json");
    fifo(&drift);
    let zero = dir.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for (file, what) in [(&drift, "a named pipe (FIFO)"), (&zero, "a device")] {
        let (code, stderr) = in_time(&["demo-site", "--port", "0", "--drift", file.to_str().unwrap()], &runs);
        assert_eq!(code, Some(2), "{stderr}");
        let said = format!("{}: the drift file is {what}, not a regular file", file.display());
        assert!(stderr.contains(&said), "{stderr}");
    }

    // The folder served: its pages are read to check every rule matches, a pipe among them
    // refused by name.
    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join("index.html"), "<p id=\"old\">Old</p>").unwrap();
    fifo(&site.join("stuck.html"));
    let rules = dir.path().join("rules.json");
    std::fs::write(&rules, json!({"rules": [{"from": "old", "to": "new"}]}).to_string()).unwrap();
    let args = ["demo-site", "--port", "0", "--dir", site.to_str().unwrap(), "--drift", rules.to_str().unwrap()];
    let (code, stderr) = in_time(&args, &runs);
    assert_eq!(code, Some(2), "{stderr}");
    let said =
        format!("{}: the site file is a named pipe (FIFO), not a regular file", site.join("stuck.html").display());
    assert!(stderr.contains(&said), "{stderr}");
}

/// Half a UTF-16 surrogate pair escaped alone (`\ud800`, text cut from JavaScript) in each
/// JSON file the CLI reads besides a workflow: each said serde's "unexpected end of hex
/// escape" or "lone leading surrogate in hex escape", which reads as a typo in the digits.
#[test]
fn half_a_surrogate_pair_in_any_json_file_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = one_parameter_workflow(dir.path());
    let workflow = workflow.to_str().unwrap();
    let half = "is half of a UTF-16 surrogate pair";
    let said = |stderr: &str, place: &str| {
        assert!(stderr.contains(half) && stderr.contains("`\\ud800`"), "{stderr}");
        assert!(stderr.contains(place), "{place}: {stderr}");
        assert!(!stderr.contains("hex escape"), "{stderr}");
    };

    // Batch data: JSON Lines, a JSON array, a value cut in two (its line).
    for (name, text, place) in [
        ("rows.jsonl", "{\"q\": \"a\"}\n{\"q\": \"b\\ud800\"}\n", "rows.jsonl:2"),
        ("rows.json", "[\n  {\"q\": \"\\ud800\"}\n]", "rows.json:2"),
    ] {
        let data = dir.path().join(name);
        std::fs::write(&data, text).unwrap();
        let (code, stderr) = in_time(&["batch", workflow, "--data", data.to_str().unwrap()], &runs);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        said(&stderr, place);
    }
    let good = dir.path().join("good.csv");
    std::fs::write(&good, "q\nA\n").unwrap();
    let pool = dir.path().join("pool.json");
    std::fs::write(&pool, "{\"endpoints\": [{\"cdp_url\": \"http://127.0.0.1:9/\\ud800\"}]}").unwrap();
    let args = ["batch", workflow, "--data", good.to_str().unwrap(), "--pool", pool.to_str().unwrap()];
    let (code, stderr) = in_time(&args, &runs);
    assert_eq!(code, Some(2), "{stderr}");
    said(&stderr, "pool.json:1:");

    // LLM settings, read by every command that may ask a model.
    let config = runs.join("no-config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("llm.json"), "{\n  \"model\": \"m\\ud800\"\n}").unwrap();
    let (code, stderr) = in_time(&["agent", "--goal", "x", "--url", "http://127.0.0.1:9/"], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    said(&stderr, "llm.json: line 2, column");
    std::fs::remove_file(config.join("llm.json")).unwrap();

    // A seed 003 skill's actions.
    let export = dir.path().join("export");
    let skill = export.join("001-sign-in");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), "---\nname: sign-in\ndescription: Sign in\n---\nSign in.\n").unwrap();
    std::fs::write(skill.join("actions.json"), "[{\"action\": \"click\", \"text\": \"\\ud800\"}]").unwrap();
    let skills = dir.path().join("skills");
    let args = ["skills", "import", export.to_str().unwrap(), "--skills", skills.to_str().unwrap()];
    let (code, stderr) = in_time(&args, &runs);
    assert_eq!(code, Some(2), "{stderr}");
    said(&stderr, "actions.json: line 1, column");

    // A drift file.
    let drift = dir.path().join("drift.json");
    std::fs::write(&drift, "{\"rules\": [{\"from\": \"\\ud800\", \"to\": \"x\"}]}").unwrap();
    let (code, stderr) = in_time(&["demo-site", "--port", "0", "--drift", drift.to_str().unwrap()], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    said(&stderr, "line 1, column");

    // A seed 003 session's timeline.
    let session = dir.path().join("session");
    std::fs::create_dir(&session).unwrap();
    std::fs::write(session.join("action_timeline.json"), "[\n  {\"action\": \"\\ud800\"}\n]").unwrap();
    let (code, stderr) = in_time(&["compile", session.to_str().unwrap()], &runs);
    assert_eq!(code, Some(2), "{stderr}");
    said(&stderr, "action_timeline.json:2:");
}

/// `demo-site --dir` given a file, or a path with nothing at it, served it anyway: every
/// page a 404, with "serving on …" as if all were well.
#[test]
fn a_folder_to_serve_that_is_no_folder_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let file = dir.path().join("index.html");
    std::fs::write(&file, "<p>Hi</p>").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let nothing = dir.path().join("no-such-folder");
    for (path, said) in [
        (&file, "is a file, not a folder to serve"),
        (&link, "is a symbolic link to the file"),
        (&nothing, "there is no folder here to serve"),
    ] {
        let (code, stderr) = in_time(&["demo-site", "--port", "0", "--dir", path.to_str().unwrap()], &runs);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(&path.display().to_string()) && stderr.contains(said), "{stderr}");
        assert!(!stderr.contains("serving on"), "{stderr}");
    }
}

/// A file given as the runs folder was "File exists (os error 17)", and a folder given as the
/// run store's database "cannot write to …: it is read-only", both exit 1 as if the machine
/// had failed; each is now said as it is, exit 2, before anything runs.
#[test]
fn a_runs_folder_that_is_a_file_or_a_database_that_is_a_folder_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = write_workflow(
        dir.path(),
        &json!({"version": 1, "name": "w", "states": [{"name": "Start",
            "checks": [{"type": "url", "value": "about:blank"}], "terminal": {"outcome": "success"}}]}),
    );
    let file = dir.path().join("runs-file");
    std::fs::write(&file, "not a folder").unwrap();
    let folder = dir.path().join("db-folder");
    std::fs::create_dir(&folder).unwrap();
    let workflow = workflow.to_str().unwrap();
    let runs = dir.path().join("runs");
    for (args, said) in [
        (
            vec!["run", workflow, "--runs-dir", file.to_str().unwrap()],
            format!("{} is a file, not a folder to keep runs in", file.display()),
        ),
        (
            vec!["run", workflow, "--db", folder.to_str().unwrap()],
            format!("{} is a folder, not a run store's database file", folder.display()),
        ),
        (
            vec!["runs", "list", "--db", folder.to_str().unwrap()],
            format!("{} is a folder, not a run store's database file", folder.display()),
        ),
    ] {
        let (code, stderr) = in_time(&args, &runs);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&said), "{args:?}: {stderr}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
}
