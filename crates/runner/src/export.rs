//! The run folder, written from the store: the one writer of `runs/<id>/` at the end of a
//! run and of `statewright runs export`.
//!
//! - `timeline.json`: the run's header (workflow, parameters with secrets masked, status,
//!   failure, the workflow as run), `steps` (each state entered, its checks, its
//!   screenshot) and `timeline` (one entry per action, seed 003's fields);
//! - `action_timeline.json`: the `timeline` alone, as seed 003 writes it;
//! - `step-NNN.json` (URL, title, visible text, elements) and the step's screenshot, as in
//!   seed 004; action artifacts (`save_html`, `screenshot`) under their own names.
//!
//! Screenshots are linked to the store's copy where the file system allows, so a run's
//! images are not kept twice; [`Images::Png`] converts them for formats that want PNG.
//!
//! An earlier export is replaced whole ([`replace`]), so a folder never mixes two runs; but
//! only a folder that is recognisably one ([`an_export`]): nothing of a person's is removed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use serde_json::{Value, json};
use statewright_store::{Error, Result, Store};

/// How step screenshots are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Images {
    /// As the store keeps them (`step-003.jpg`), hard-linked where possible.
    AsStored,
    /// Converted to PNG (`step-003.png`), for trajectory formats that expect it.
    Png,
}

fn time(ms: i64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64)).to_string()
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_owned(), source }
}

/// Writes through a temporary file and a rename: readers never see half a file.
fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// A name from data (an action's file name) reduced to a plain file name inside `dir`.
fn inside(dir: &Path, name: &str) -> Option<PathBuf> {
    let file = Path::new(name).file_name()?;
    (file != "." && file != "..").then(|| dir.join(file))
}

/// Writes run `id`'s folder at `dir`.
pub fn export(store: &Store, id: &str, dir: &Path, images: Images) -> Result<()> {
    let detail = store.run_detail(id, true)?;
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut screenshot_of_step = HashMap::new();
    for step in &detail.steps {
        let base = format!("step-{:03}", step.step);
        if let Some(rel) = &step.screenshot
            && let Some(name) = write_image(store, rel, dir, &base, images)?
        {
            screenshot_of_step.insert(step.step, name);
        }
        if let Some(page) = &step.page {
            write(&dir.join(format!("{base}.json")), &serde_json::to_vec_pretty(page)?)?;
        }
    }
    let mut timeline = Vec::new();
    for a in &detail.actions {
        // The action's file, by the name it has here: a later export knows it for its own.
        let mut artifact = None;
        if let (Some(name), Some(rel)) = (&a.artifact_name, &a.artifact_path)
            && let Some(path) = inside(dir, name)
            && let Some(bytes) = store.read_blob(rel)?
        {
            write(&path, &bytes)?;
            artifact = path.file_name().map(|n| n.to_string_lossy().into_owned());
        }
        let preempted = a.kind == "preempted";
        timeline.push(json!({
            "action_step": a.seq,
            "timestamp": time(a.at_ms),
            "action_type": if preempted { "preempted" } else { "state_action" },
            "action": if preempted { Value::Null } else { json!(a.kind) },
            "element_label": a.detail,
            "args": a.args.clone().unwrap_or(json!({})),
            "state": a.state,
            "step": a.step,
            "index": a.index,
            "elapsed_ms": a.elapsed_ms,
            "duration_ms": a.duration_ms,
            "attempts": a.attempts,
            "error": a.error,
            "by_state": a.by_state,
            "alternatives": a.alternatives,
            "screenshot": screenshot_of_step.get(&a.step),
            "artifact": artifact,
        }));
    }
    write(&dir.join("action_timeline.json"), &serde_json::to_vec_pretty(&timeline)?)?;
    let steps: Vec<Value> = detail
        .steps
        .iter()
        .map(|s| {
            json!({
                "step": s.step, "state": s.state, "state_index": s.state_index, "visit": s.visit,
                "elapsed_ms": s.elapsed_ms, "timestamp": time(s.entered_ms), "url": s.url, "checks": s.checks,
                "screenshot": screenshot_of_step.get(&s.step),
            })
        })
        .collect();
    let r = &detail.run;
    let definition = store.workflow_json(&r.workflow_hash)?.and_then(|w| serde_json::from_str::<Value>(&w).ok());
    let doc = json!({
        "run_id": r.id,
        "workflow": r.workflow,
        "task_description": definition.as_ref().and_then(|d| d.get("description")).cloned(),
        "parameters": r.parameters,
        "browser": r.browser,
        "started_at": time(r.started_ms),
        "finished_at": r.finished_ms.map(time),
        "status": r.status,
        "end_state": r.end_state,
        "outcome": r.outcome,
        "message": r.message,
        "failure": r.failure,
        "duration_ms": r.duration_ms,
        "step_count": r.steps,
        "action_count": r.actions,
        "llm_calls": r.llm_calls,
        "llm_tokens": r.llm_tokens,
        "llm_cost": r.llm_cost,
        "steps": steps,
        "timeline": timeline,
        "workflow_definition": definition,
    });
    write(&dir.join("timeline.json"), &serde_json::to_vec_pretty(&doc)?)
}

/// Whether `dir` holds an earlier export and nothing else, so that [`replace`] may remove
/// it: a `timeline.json` naming a run and, beside it, only files an export writes (the run
/// folder's own names, and the actions' files its timeline names). Otherwise what says it
/// is not: a folder, a link or a file no export writes (a person's own, pointed at by
/// mistake), named.
pub fn an_export(dir: &Path) -> std::result::Result<(), String> {
    // Read bounded: a pipe named timeline.json is refused, not waited on for ever.
    let timeline = statewright_workflow::read_input_bytes(
        &dir.join("timeline.json"),
        "timeline.json in it",
        statewright_workflow::MAX_WRITTEN_BYTES,
    )
    .map_err(|e| if e.missing { "it has no timeline.json".to_owned() } else { e.message })?;
    let doc: Value =
        serde_json::from_slice(&timeline).map_err(|_| "its timeline.json is not an export's".to_owned())?;
    if !doc.get("run_id").is_some_and(Value::is_string) {
        return Err("its timeline.json names no run".into());
    }
    let entries = doc.get("timeline").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let artifacts: Vec<&str> = entries.iter().filter_map(|e| e.get("artifact")?.as_str()).collect();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("it cannot be read: {e}"))? {
        let entry = entry.map_err(|e| format!("it cannot be read: {e}"))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let file = entry.file_type().is_ok_and(|t| t.is_file());
        let ours = statewright_workflow::params::run_folder_file(&name).is_some() || artifacts.contains(&name.as_str());
        if !file || !ours {
            return Err(format!("it holds `{name}`, which no export writes"));
        }
    }
    Ok(())
}

/// Writes run `id`'s folder in place of the earlier export at `dir` (checked by the caller
/// with [`an_export`]): into a new folder beside it, which then takes its place, so that
/// `dir` ends as exactly this run's export (no `step-009.json` of a longer run left over)
/// and, when the export fails, stays as it was.
pub fn replace(store: &Store, id: &str, dir: &Path, images: Images) -> Result<()> {
    let dir = std::fs::canonicalize(dir).map_err(io(dir))?;
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        let refused = std::io::Error::other("not a folder an export can replace");
        return Err(Error::Io { path: dir.clone(), source: refused });
    };
    let beside = |what: &str| parent.join(format!(".{}.{what}-{}~", name.to_string_lossy(), std::process::id()));
    let (new, old) = (beside("export"), beside("replaced"));
    std::fs::create_dir(&new).map_err(io(&new))?;
    let swapped = export(store, id, &new, images)
        .and_then(|()| {
            let permissions = std::fs::metadata(&dir).map_err(io(&dir))?.permissions();
            std::fs::set_permissions(&new, permissions).map_err(io(&new))
        })
        .and_then(|()| std::fs::rename(&dir, &old).map_err(io(&dir)))
        .and_then(|()| {
            std::fs::rename(&new, &dir).map_err(io(&dir)).inspect_err(|_| {
                let _ = std::fs::rename(&old, &dir);
            })
        });
    if swapped.is_err() {
        let _ = std::fs::remove_dir_all(&new);
        return swapped;
    }
    // The earlier export, out of the way: only its own files (an_export), none of them the
    // store's (screenshots are links to its copies, which stay).
    std::fs::remove_dir_all(&old).map_err(io(&old))
}

/// Writes a step's screenshot; returns its file name.
fn write_image(store: &Store, rel: &str, dir: &Path, base: &str, images: Images) -> Result<Option<String>> {
    let stored_ext = Path::new(rel).extension().and_then(|e| e.to_str()).unwrap_or("png");
    if images == Images::AsStored || stored_ext == "png" {
        let name = format!("{base}.{stored_ext}");
        let target = dir.join(&name);
        let _ = std::fs::remove_file(&target);
        // A hard link keeps one copy on disk; across file systems (or in memory), a copy.
        if let Some(source) = store.root().map(|root| root.join(rel))
            && std::fs::hard_link(&source, &target).is_ok()
        {
            return Ok(Some(name));
        }
        return match store.read_blob(rel)? {
            Some(bytes) => write(&target, &bytes).map(|()| Some(name)),
            None => Ok(None),
        };
    }
    let Some(bytes) = store.read_blob(rel)? else { return Ok(None) };
    let name = format!("{base}.png");
    let png = image::load_from_memory(&bytes)
        .and_then(|img| {
            let mut out = std::io::Cursor::new(Vec::new());
            img.write_to(&mut out, image::ImageFormat::Png).map(|()| out.into_inner())
        })
        .map_err(|e| Error::Io { path: dir.join(&name), source: std::io::Error::other(e) })?;
    write(&dir.join(&name), &png).map(|()| Some(name))
}
