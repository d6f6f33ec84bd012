//! Builds the in-page library from its sections (`assets/js/statewright/*.js`), joined in
//! file-name order into the one script injected into every page. Each section is a part of a
//! single function body and is not a script alone; the tests join them the same way
//! (`assets/js/library.mjs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // Read at run time, not with `env!`: a build script compiled in another checkout that
    // shares the target folder is reused as is (see crates/demo/build.rs).
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../../assets/js/statewright");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut sections: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the in-page library is missing ({}): {e}", dir.display()))
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "js"))
        .collect();
    assert!(!sections.is_empty(), "no sections in {}", dir.display());
    sections.sort();
    let mut out = String::from(
        "/// The library injected into every page; it defines `window.__statewright` once.\npub const LIBRARY: &str = concat!(\n",
    );
    for section in &sections {
        let abs = section.canonicalize().expect("canonical path");
        writeln!(out, "    include_str!({abs:?}),").expect("write to string");
    }
    out.push_str(");\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("library.rs");
    std::fs::write(dest, out).expect("write library.rs");
}
