//! Embeds the demo site (`assets/demo-site`) into the binary, so `statewright` serves it
//! from anywhere, with no files to install.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo-site");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &mut files);
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
