//! The committed TypeScript bindings (`ui/src/bindings.ts`) match the Rust types. When
//! this fails, a Rust type shared with the front end changed: regenerate with
//! `UPDATE_BINDINGS=1 cargo test -p statewright-workbench --test bindings` and commit.

use std::path::PathBuf;

#[test]
fn committed_typescript_bindings_are_up_to_date() {
    let path =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../../ui/src/bindings.ts");
    let fresh = statewright_workbench::bindings::typescript();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &fresh).expect("write ui/src/bindings.ts");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "ui/src/bindings.ts is stale: a Rust type shared with the UI changed. Run \
         `UPDATE_BINDINGS=1 cargo test -p statewright-workbench --test bindings` and commit the result."
    );
}
