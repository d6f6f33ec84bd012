//! Finding and checking the skills a workflow uses: `skills/NAME.json`, in a `skills/`
//! folder beside the workflow's own folder (`workflows/`'s sibling) or inside it. Every
//! `use_skill` is checked against its skill (it exists and is one, the arguments are its
//! parameters and the required ones are given, the outputs are its variables), and the
//! skills' own skills likewise; problems point into the file that holds the action.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostics, Reporter};
use crate::load::load_file;
use crate::model::{Action, Workflow};
use crate::span::{JsonPath, SpanIndex};

/// The skills folder for a workflow file: `../skills` from its folder, else `./skills`.
/// `None` when neither exists.
pub fn skills_dir_for(workflow_file: &Path) -> Option<PathBuf> {
    let folder = workflow_file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let beside = folder.parent().map(|p| p.join("skills"));
    beside.into_iter().chain([folder.join("skills")]).find(|d| d.is_dir())
}

/// The file of skill `name` in `dir`.
pub fn skill_file(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.json"))
}

/// Every skill `workflow` (read from `file`) uses, directly or through other skills, by name.
pub fn load_skills(
    workflow: &Workflow,
    file: &Path,
    dir: Option<&Path>,
) -> Result<HashMap<String, Workflow>, Diagnostics> {
    let mut skills = HashMap::new();
    let mut pending = vec![(None::<String>, workflow.clone(), file.to_path_buf())];
    let mut problems = Diagnostics::default();
    let mut uses = Vec::new();
    while let Some((user_name, user, user_file)) = pending.pop() {
        let source = crate::load::read_workflow_text(&user_file).unwrap_or_default();
        let index = SpanIndex::new(&source);
        let shown = user_file.display().to_string();
        let mut report = Reporter::new(&shown, &index);
        for (si, state) in user.states.iter().enumerate() {
            for (ai, action) in state.actions.iter().enumerate() {
                let Action::UseSkill { skill, args, outputs } = action else { continue };
                let path = JsonPath::root().key("states").index(si).key("actions").index(ai);
                if let Some(user) = &user_name {
                    uses.push(Use {
                        user: user.clone(),
                        skill: skill.clone(),
                        file: user_file.clone(),
                        path: path.clone(),
                    });
                }
                if !skills.contains_key(skill) {
                    match load_one(skill, dir, &path, &mut report, &mut problems) {
                        Some((loaded, loaded_file)) => {
                            skills.insert(skill.clone(), loaded.clone());
                            pending.push((Some(skill.clone()), loaded, loaded_file));
                        }
                        None => continue,
                    }
                }
                let used = &skills[skill];
                for name in args.keys().filter(|a| !used.parameters.contains_key(*a)) {
                    let declared: Vec<&str> = used.parameters.keys().map(String::as_str).collect();
                    report.error_at_key(
                        &path.key("args").key(name),
                        format!("skill `{skill}` has no parameter `{name}`"),
                        Some(format!("its parameters: {}", list(&declared))),
                    );
                }
                for (name, param) in &used.parameters {
                    if param.default.is_none() && !args.contains_key(name) {
                        report.error(
                            &path,
                            format!("skill `{skill}` needs the argument `{name}`"),
                            Some(format!("add \"args\": {{\"{name}\": \"…\"}}")),
                        );
                    }
                }
                let variables = used.variables();
                for (here, there) in outputs.iter().filter(|(_, there)| !variables.contains(&there.as_str())) {
                    report.error(
                        &path.key("outputs").key(here),
                        format!("skill `{skill}` sets no variable `{there}`"),
                        Some(format!("its variables: {}", list(&variables))),
                    );
                }
            }
        }
        problems.0.extend(report.found);
    }
    report_cycles(&uses, &mut problems);
    if problems.has_errors() { Err(problems) } else { Ok(skills) }
}

/// A skill's `use_skill` of another, where it is written.
struct Use {
    user: String,
    skill: String,
    file: PathBuf,
    path: JsonPath,
}

/// The `use_skill`s by which a skill comes back to itself (`a` uses `b`, which uses `a`): a
/// run would nest them until it gave up, and with a person to review it, wait on them.
/// Each is an error where it is written.
fn report_cycles(uses: &[Use], problems: &mut Diagnostics) {
    let mut by_user: HashMap<&str, Vec<&str>> = HashMap::new();
    for u in uses {
        by_user.entry(u.user.as_str()).or_default().push(u.skill.as_str());
    }
    for u in uses {
        let Some(route) = route(&by_user, &u.skill, &u.user) else { continue };
        let source = crate::load::read_workflow_text(&u.file).unwrap_or_default();
        let index = SpanIndex::new(&source);
        let shown = u.file.display().to_string();
        let mut report = Reporter::new(&shown, &index);
        report.error(
            &u.path.key("skill"),
            format!("skill `{}` comes back to itself: {} → {}", u.user, u.user, route.join(" → ")),
            Some(
                "a skill that uses itself, directly or through others, never ends; take a `use_skill` out of the loop"
                    .into(),
            ),
        );
        problems.0.extend(report.found);
    }
}

/// The skills from `from` to `to` along `uses`, both included, if `to` is reached (the
/// shortest way).
fn route<'a>(uses: &HashMap<&'a str, Vec<&'a str>>, from: &'a str, to: &str) -> Option<Vec<&'a str>> {
    let mut came_from: HashMap<&str, &str> = HashMap::new();
    let mut seen = HashSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut way = vec![at];
            while let Some(before) = came_from.get(way[way.len() - 1]) {
                way.push(*before);
            }
            way.reverse();
            return Some(way);
        }
        for next in uses.get(at).into_iter().flatten() {
            if seen.insert(*next) {
                came_from.insert(*next, at);
                queue.push_back(*next);
            }
        }
    }
    None
}

/// Loads skill `name` for the `use_skill` at `path`, reporting why it cannot be used.
fn load_one(
    name: &str,
    dir: Option<&Path>,
    path: &JsonPath,
    report: &mut Reporter,
    problems: &mut Diagnostics,
) -> Option<(Workflow, PathBuf)> {
    let Some(dir) = dir else {
        report.error(
            &path.key("skill"),
            format!("no skills folder for skill `{name}`"),
            Some("put skills in a `skills/` folder beside `workflows/` (or pass --skills DIR)".into()),
        );
        return None;
    };
    let file = skill_file(dir, name);
    if !file.is_file() {
        let mut known: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.path().file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        known.sort();
        let help = match crate::validate::closest(name, known.iter().map(String::as_str)) {
            Some(close) => format!("did you mean `{close}`?"),
            None => {
                format!("skills in {}: {}", dir.display(), list(&known.iter().map(String::as_str).collect::<Vec<_>>()))
            }
        };
        report.error(
            &path.key("skill"),
            format!("there is no skill `{name}` ({} does not exist)", file.display()),
            Some(help),
        );
        return None;
    }
    match load_file(&file) {
        Ok(loaded) if loaded.workflow.skill.is_some() => Some((loaded.workflow, file)),
        Ok(_) => {
            report.error(
                &path.key("skill"),
                format!("{} is a workflow, not a skill", file.display()),
                Some("a skill has a \"skill\" section (with its pre- and postconditions, possibly empty)".into()),
            );
            None
        }
        Err(diagnostics) => {
            report.error(&path.key("skill"), format!("skill `{name}` is invalid (see below)"), None);
            problems.0.extend(diagnostics.0);
            None
        }
    }
}

fn list(names: &[&str]) -> String {
    if names.is_empty() { "(none)".to_owned() } else { names.join(", ") }
}
