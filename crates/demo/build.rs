//! Embeds the demo site (`assets/demo-site`) into the binary, so `statewright` serves it
//! from anywhere, with no files to install.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // Read at run time, not with `env!`: a build script compiled in another checkout that
    // shares the target folder (CI's clone, a worktree) is reused as is, and must embed the
    // site of the checkout being built, not the one it was compiled in.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("../../assets/demo-site");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &mut files);
    assert!(!files.is_empty(), "the demo site is missing: no files under {}", root.display());
    files.sort();
    let mut out = String::from(
        "/// Every file of the demo site: (URL path, contents).\npub static FILES: &[(&str, &[u8])] = &[\n",
    );
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let url = file.strip_prefix(&root).expect("under root").to_string_lossy().replace('\\', "/");
        let abs = file.canonicalize().expect("canonical path");
        writeln!(out, "    ({:?}, include_bytes!({:?})),", format!("/{url}"), abs).expect("write to string");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("site.rs");
    std::fs::write(dest, out).expect("write site.rs");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
