// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// WebKit settings the window starts with unless the environment already sets them (set a
/// variable to override). Set before anything else runs: WebKit's processes inherit them.
const WEBKIT_DEFAULTS: &[(&str, &str)] = &[
    // The window's JavaScript runs without JavaScriptCore's optimizing DFG and FTL tiers:
    // they held 12 MiB of the web process idle, and the baseline JIT lays out a 300-state
    // workflow about 10% slower (the demo's not measurably).
    ("JSC_useDFGJIT", "0"),
    // The web process paints into shared memory instead of rendering through OpenGL into
    // DMA-BUF buffers. Where OpenGL is Mesa's software renderer (no GPU, a VM, Xvfb) that
    // path held ~90 MiB of the web process in the renderer's compiled shaders and buffers,
    // for a window of forms and a graph that draws as fast without it.
    ("WEBKIT_DISABLE_DMABUF_RENDERER", "1"),
];

fn main() {
    for (name, value) in WEBKIT_DEFAULTS {
        if std::env::var_os(name).is_none() {
            // SAFETY: the first thing the process does, before any thread exists to read
            // the environment.
            unsafe { std::env::set_var(name, value) };
        }
    }
    statewright_app::run();
}
