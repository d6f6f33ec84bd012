//! Reading back the screenshots and artifacts the store keeps in the runs folder.

use std::time::Duration;

use statewright_store::Store;

#[test]
fn a_named_pipe_in_place_of_a_stored_file_is_an_error_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&Store::default_path(dir.path())).unwrap();
    std::fs::create_dir_all(dir.path().join("screens/ab")).unwrap();
    let pipe = dir.path().join("screens/ab/abc.png");
    assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(store.read_blob("screens/ab/abc.png").map_err(|e| e.to_string())));
    // Before, the pipe was waited on for ever.
    let read = rx.recv_timeout(Duration::from_secs(20)).expect("answered within 20 s");
    let message = read.expect_err("a pipe is not a screenshot");
    assert!(message.ends_with("abc.png: the stored file is a named pipe (FIFO), not a regular file"), "{message}");
}
