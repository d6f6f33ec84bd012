//! Input files named on the command line that are not files to read, through the real
//! binary: a named pipe (which blocked a batch for ever, waiting for a writer), a device
//! (`/dev/zero`, read until memory ran out) and a folder are each refused at once, exit 2,
//! with the file and what it is named; as workflow files already were.

mod common;

use common::{in_time, write_workflow};
use serde_json::json;

#[test]
fn batch_data_and_pool_files_that_are_no_regular_file_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = write_workflow(
        dir.path(),
        &json!({"version": 1, "name": "w", "parameters": {"q": {}},
            "states": [{"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                        "terminal": {"outcome": "success"}}]}),
    );
    let fifo = dir.path().join("rows.csv");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let zero = dir.path().join("zero.csv");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let folder = dir.path().join("folder.json");
    std::fs::create_dir(&folder).unwrap();
    let good = dir.path().join("good.csv");
    std::fs::write(&good, "q\nA\n").unwrap();

    let workflow = workflow.to_str().unwrap();
    for (data, what) in [(&fifo, "a named pipe (FIFO)"), (&zero, "a device"), (&folder, "a folder")] {
        let (code, stderr) = in_time(&["batch", workflow, "--data", data.to_str().unwrap()], &runs);
        assert_eq!(code, Some(2), "{stderr}");
        let said = format!("{}: the data file is {what}, not a regular file", data.display());
        assert!(stderr.contains(&said), "{stderr}");
    }
    for (pool, what) in [(&fifo, "a named pipe (FIFO)"), (&zero, "a device")] {
        let args = ["batch", workflow, "--data", good.to_str().unwrap(), "--pool", pool.to_str().unwrap()];
        let (code, stderr) = in_time(&args, &runs);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(&format!("the pool file is {what}, not a regular file")), "{stderr}");
    }
}
