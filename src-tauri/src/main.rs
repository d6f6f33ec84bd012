// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // The window's JavaScript runs without JavaScriptCore's optimizing DFG and FTL tiers:
    // they held 12 MiB of the web process idle, and the baseline JIT lays out a 300-state
    // workflow about 10% slower (the demo's not measurably). Set the variable to override.
    if std::env::var_os("JSC_useDFGJIT").is_none() {
        // SAFETY: the first thing the process does, before any thread exists to read the
        // environment; WebKit's web process inherits it.
        unsafe { std::env::set_var("JSC_useDFGJIT", "0") };
    }
    statewright_app::run();
}
