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
    // path held ~125 MiB of the web process, for a window of forms and a graph that draws
    // as fast without it.
    ("WEBKIT_DISABLE_DMABUF_RENDERER", "1"),
];

fn main() {
    // The variables set here are this process's own: programs a desktop workflow launches
    // get the environment as the user had it (see `OWN_ENV`).
    let mut own = Vec::new();
    for &(name, value) in WEBKIT_DEFAULTS {
        set_unless_set(name, value, &mut own);
    }
    #[cfg(target_os = "linux")]
    if std::env::var("WEBKIT_DISABLE_DMABUF_RENDERER").is_ok_and(|v| v != "0") {
        no_opengl::in_this_process(&mut own);
    }
    // SAFETY: as in `set_unless_set`.
    unsafe { std::env::set_var(statewright_runner::OWN_ENV, own.join(",")) };
    statewright_app::run();
}

/// Sets `name` unless the environment has it, and then notes it in `own`.
fn set_unless_set(name: &'static str, value: &str, own: &mut Vec<&'static str>) {
    if std::env::var_os(name).is_none() {
        // SAFETY: called first thing in `main`, before any thread exists to read the
        // environment.
        unsafe { std::env::set_var(name, value) };
        own.push(name);
    }
}

/// With the DMA-BUF renderer off, this process shows the web view from shared memory and
/// needs no OpenGL, yet GTK (GLX, when it opens the display) and WebKit (EGL, when the first
/// page loads) set it up anyway, which loads Mesa and, on Debian, LLVM: ~50 MiB. The web
/// process does need EGL (it aborts without), so this must not reach it.
#[cfg(target_os = "linux")]
mod no_opengl {
    use std::ffi::{c_char, c_void};

    /// libglvnd's EGL_NO_DISPLAY and EGL_EXTENSIONS.
    const NO_DISPLAY: *mut c_void = std::ptr::null_mut();
    const EXTENSIONS: i32 = 0x3055;

    #[link(name = "EGL")]
    unsafe extern "C" {
        fn eglQueryString(display: *mut c_void, name: i32) -> *const c_char;
    }

    /// GDK_GL=disable stops GTK's. For WebKit's: libglvnd reads its list of EGL vendors
    /// once per process, at the first EGL call, so one call made here with the list pointed
    /// at nothing leaves this process with no EGL, and the variable is gone again before
    /// WebKit starts its web process. A list the user set is left alone.
    pub fn in_this_process(own: &mut Vec<&'static str>) {
        super::set_unless_set("GDK_GL", "disable", own);
        const VENDORS: &str = "__EGL_VENDOR_LIBRARY_FILENAMES";
        if std::env::var_os(VENDORS).is_none() {
            // SAFETY: still before any thread exists; eglQueryString on no display only
            // reads, and takes no pointer of ours.
            unsafe {
                std::env::set_var(VENDORS, "/nonexistent/statewright-no-egl.json");
                eglQueryString(NO_DISPLAY, EXTENSIONS);
                std::env::remove_var(VENDORS);
            }
        }
    }
}
