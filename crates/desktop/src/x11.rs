//! Blocking queries against the X server over one x11rb connection: the window list, the
//! focused window, focusing. Window managers publish all of this through EWMH properties;
//! bare Xvfb (and minimal WMs) do not, so every query has a fallback that asks X itself
//! (the window tree, `WM_CLASS`, the input focus, the X-Resource extension for pids).
//!
//! Everything here blocks; the async layer calls it on `spawn_blocking`.

use x11rb::connection::{Connection, RequestConnection};
use x11rb::cookie::Cookie;
use x11rb::errors::{ConnectionError, ReplyError};
use x11rb::protocol::res::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{
    self, AtomEnum, ClientMessageEvent, ConfigureWindowAux, ConnectionExt as _, EventMask, GetPropertyReply,
    InputFocus, MapState, StackMode, Window,
};
use x11rb::rust_connection::RustConnection;

use crate::error::{DesktopError, DesktopResult};
use crate::keymap::{KeyMap, Remap};
use crate::types::{Rect, WindowInfo};

x11rb::atom_manager! {
    Atoms: AtomsCookie {
        _NET_CLIENT_LIST,
        _NET_ACTIVE_WINDOW,
        _NET_SUPPORTING_WM_CHECK,
        _NET_WM_NAME,
        _NET_WM_PID,
        UTF8_STRING,
    }
}

/// Where the window list came from, for diagnostics and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowSource {
    /// The window manager's `_NET_CLIENT_LIST`.
    Ewmh,
    /// A walk of the X window tree (no EWMH window manager).
    XTree,
}

pub(crate) struct X11 {
    conn: RustConnection,
    root: Window,
    screen: Rect,
    atoms: Atoms,
    has_res: bool,
}

impl From<ConnectionError> for DesktopError {
    fn from(e: ConnectionError) -> Self {
        DesktopError::X11(format!("connection to the X server: {e}"))
    }
}

impl From<ReplyError> for DesktopError {
    fn from(e: ReplyError) -> Self {
        DesktopError::X11(e.to_string())
    }
}

/// A reply for a window that may have been destroyed meanwhile: `BadWindow` and friends
/// become `None` (the window is skipped); a broken connection is an error.
fn maybe<T>(r: Result<T, ReplyError>) -> DesktopResult<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(ReplyError::X11Error(_)) => Ok(None),
        Err(ReplyError::ConnectionError(e)) => Err(e.into()),
    }
}

/// Checks the environment before connecting, so the error says *why* there is no display.
pub(crate) fn display_name(explicit: Option<&str>) -> DesktopResult<String> {
    if let Some(d) = explicit.filter(|d| !d.is_empty()) {
        return Ok(d.to_owned());
    }
    match std::env::var("DISPLAY") {
        Ok(d) if !d.is_empty() => Ok(d),
        _ => match std::env::var("WAYLAND_DISPLAY") {
            Ok(w) if !w.is_empty() => Err(DesktopError::WaylandOnly { wayland_display: w }),
            _ => Err(DesktopError::NoDisplay { detail: "DISPLAY is not set".into() }),
        },
    }
}

impl X11 {
    pub(crate) fn connect(display: &str) -> DesktopResult<X11> {
        let (conn, screen_num) = x11rb::connect(Some(display))
            .map_err(|e| DesktopError::NoDisplay { detail: format!("cannot connect to {display}: {e}") })?;
        let screen = conn
            .setup()
            .roots
            .get(screen_num)
            .ok_or_else(|| DesktopError::X11(format!("display {display} has no screen {screen_num}")))?;
        let (root, width, height) = (screen.root, screen.width_in_pixels, screen.height_in_pixels);
        let atoms = Atoms::new(&conn)?.reply()?;
        let has_res = conn.extension_information(res::X11_EXTENSION_NAME)?.is_some();
        let screen = Rect { x: 0, y: 0, width: width.into(), height: height.into() };
        Ok(X11 { conn, root, screen, atoms, has_res })
    }

    pub(crate) fn screen(&self) -> Rect {
        self.screen
    }

    /// Applies a keyboard mapping change, and returns once the server has applied it.
    pub(crate) fn remap(&self, remap: &Remap) -> DesktopResult<()> {
        self.conn.change_keyboard_mapping(remap.count, remap.first, remap.per_keycode, &remap.keysyms)?;
        // A round trip: the server handles a connection's requests in order.
        self.conn.get_input_focus()?.reply()?;
        Ok(())
    }

    /// The keyboard map as it is now. Read once per connection, before enigo binds any
    /// spare keycode, so it holds the layout's own keys.
    pub(crate) fn key_map(&self) -> DesktopResult<KeyMap> {
        let setup = self.conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let reply = self.conn.get_keyboard_mapping(min, max - min + 1)?.reply()?;
        Ok(KeyMap::from_mapping(min, reply.keysyms_per_keycode, &reply.keysyms))
    }

    fn property(
        &self,
        w: Window,
        prop: impl Into<u32>,
        ty: impl Into<u32>,
    ) -> DesktopResult<Cookie<'_, RustConnection, GetPropertyReply>> {
        Ok(self.conn.get_property(false, w, prop, ty, 0, 4096)?)
    }

    fn window_prop(&self, w: Window, prop: u32) -> DesktopResult<Option<Window>> {
        let reply = maybe(self.property(w, prop, AtomEnum::WINDOW)?.reply())?;
        Ok(reply.and_then(|r| r.value32().and_then(|mut v| v.next())).filter(|&w| w != 0))
    }

    /// True when an EWMH window manager is running: the root's `_NET_SUPPORTING_WM_CHECK`
    /// names a live window that names itself (a stale property from a dead WM does not).
    pub(crate) fn wm_present(&self) -> DesktopResult<bool> {
        let check = self.atoms._NET_SUPPORTING_WM_CHECK;
        let Some(child) = self.window_prop(self.root, check)? else { return Ok(false) };
        Ok(self.window_prop(child, check)? == Some(child))
    }

    /// The top-level client windows, and where the list came from.
    pub(crate) fn clients(&self) -> DesktopResult<(Vec<Window>, WindowSource)> {
        if self.wm_present()? {
            let reply = maybe(self.property(self.root, self.atoms._NET_CLIENT_LIST, AtomEnum::WINDOW)?.reply())?;
            let list: Vec<Window> = reply.and_then(|r| r.value32().map(|v| v.collect())).unwrap_or_default();
            if !list.is_empty() {
                return Ok((list, WindowSource::Ewmh));
            }
        }
        let mut out = Vec::new();
        self.walk(self.root, 0, &mut out)?;
        Ok((out, WindowSource::XTree))
    }

    /// Collects viewable, non-override-redirect windows that carry `WM_CLASS` (every
    /// toolkit sets it on its top-level windows), looking two levels below a window that
    /// does not (a reparenting WM's frame, say).
    fn walk(&self, w: Window, depth: u32, out: &mut Vec<Window>) -> DesktopResult<()> {
        let Some(tree) = maybe(self.conn.query_tree(w)?.reply())? else { return Ok(()) };
        // Send every request first, then read the replies: one round trip, not 2 per child.
        let mut pending = Vec::with_capacity(tree.children.len());
        for &c in &tree.children {
            let attrs = self.conn.get_window_attributes(c)?;
            let class = self.property(c, AtomEnum::WM_CLASS, AtomEnum::STRING)?;
            pending.push((c, attrs, class));
        }
        for (c, attrs, class) in pending {
            let (Some(attrs), Some(class)) = (maybe(attrs.reply())?, maybe(class.reply())?) else { continue };
            if attrs.override_redirect || attrs.map_state != MapState::VIEWABLE {
                continue;
            }
            if !class.value.is_empty() {
                out.push(c);
            } else if depth < 2 {
                self.walk(c, depth + 1, out)?;
            }
        }
        Ok(())
    }

    /// The focused top-level window among `clients`: `_NET_ACTIVE_WINDOW` when a WM keeps
    /// it, else the X input focus (walked up to its top-level), else — when focus follows
    /// the pointer, as on bare Xvfb — the top-level under the pointer.
    pub(crate) fn focused(&self, clients: &[Window]) -> DesktopResult<Option<Window>> {
        if let Some(active) = self.window_prop(self.root, self.atoms._NET_ACTIVE_WINDOW)?
            && clients.contains(&active)
        {
            return Ok(Some(active));
        }
        let focus = self.conn.get_input_focus()?.reply()?.focus;
        let start = if focus == u32::from(InputFocus::POINTER_ROOT) {
            let pointer = self.conn.query_pointer(self.root)?.reply()?;
            pointer.child
        } else {
            focus
        };
        self.toplevel_of(start, clients)
    }

    /// Walks up from `w` to the first ancestor in `clients`; also accepts a frame that
    /// directly contains one.
    fn toplevel_of(&self, mut w: Window, clients: &[Window]) -> DesktopResult<Option<Window>> {
        while w != 0 && w != self.root {
            if clients.contains(&w) {
                return Ok(Some(w));
            }
            let Some(tree) = maybe(self.conn.query_tree(w)?.reply())? else { return Ok(None) };
            if let Some(&c) = tree.children.iter().find(|c| clients.contains(c)) {
                return Ok(Some(c));
            }
            w = tree.parent;
        }
        Ok(None)
    }

    /// Reads one window's title, class, pid and geometry; `None` if it vanished meanwhile.
    pub(crate) fn info(&self, w: Window, focused: Option<Window>) -> DesktopResult<Option<WindowInfo>> {
        let a = &self.atoms;
        let net_name = self.property(w, a._NET_WM_NAME, a.UTF8_STRING)?;
        let name = self.property(w, AtomEnum::WM_NAME, AtomEnum::ANY)?;
        let class = self.property(w, AtomEnum::WM_CLASS, AtomEnum::STRING)?;
        let pid = self.property(w, a._NET_WM_PID, AtomEnum::CARDINAL)?;
        let geometry = self.conn.get_geometry(w)?;
        let attrs = self.conn.get_window_attributes(w)?;
        let origin = self.conn.translate_coordinates(w, self.root, 0, 0)?;

        let (Some(net_name), Some(name), Some(class), Some(pid), Some(geometry), Some(attrs), Some(origin)) = (
            maybe(net_name.reply())?,
            maybe(name.reply())?,
            maybe(class.reply())?,
            maybe(pid.reply())?,
            maybe(geometry.reply())?,
            maybe(attrs.reply())?,
            maybe(origin.reply())?,
        ) else {
            return Ok(None);
        };
        let title = if net_name.value.is_empty() { &name.value } else { &net_name.value };
        let title = String::from_utf8_lossy(title).into_owned();
        let mut class_parts = class.value.split(|&b| b == 0).map(|s| String::from_utf8_lossy(s).into_owned());
        let instance = class_parts.next().unwrap_or_default();
        let app_class = class_parts.next().unwrap_or_default();
        let pid = match pid.value32().and_then(|mut v| v.next()) {
            Some(pid) if pid != 0 => Some(pid),
            _ => self.pid_from_xres(w)?,
        };
        Ok(Some(WindowInfo {
            id: w,
            title,
            app_class,
            instance,
            pid,
            geometry: Rect {
                x: origin.dst_x.into(),
                y: origin.dst_y.into(),
                width: geometry.width.into(),
                height: geometry.height.into(),
            },
            focused: focused == Some(w),
            visible: attrs.map_state == MapState::VIEWABLE,
        }))
    }

    /// Asks the server which process owns the window's connection (works for programs
    /// that never set `_NET_WM_PID`, if the client is local).
    fn pid_from_xres(&self, w: Window) -> DesktopResult<Option<u32>> {
        if !self.has_res {
            return Ok(None);
        }
        let spec = res::ClientIdSpec { client: w, mask: res::ClientIdMask::LOCAL_CLIENT_PID };
        let Some(reply) = maybe(self.conn.res_query_client_ids(&[spec])?.reply())? else { return Ok(None) };
        Ok(reply.ids.iter().find_map(|id| id.value.first().copied()))
    }

    /// All client windows with their details.
    pub(crate) fn windows(&self) -> DesktopResult<(Vec<WindowInfo>, WindowSource)> {
        let (clients, source) = self.clients()?;
        let focused = self.focused(&clients)?;
        let mut out = Vec::with_capacity(clients.len());
        for w in clients {
            if let Some(info) = self.info(w, focused)? {
                out.push(info);
            }
        }
        Ok((out, source))
    }

    /// Asks for `w` to be raised and focused: through the window manager when there is one
    /// (it may otherwise undo our change), directly otherwise.
    pub(crate) fn request_focus(&self, w: Window, direct: bool) -> DesktopResult<()> {
        if !direct && self.wm_present()? {
            // Source indication 2 = a pager: WMs honour it without focus-stealing checks.
            let event = ClientMessageEvent::new(32, w, self.atoms._NET_ACTIVE_WINDOW, [2, 0, 0, 0, 0]);
            let mask = EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY;
            // `check` waits for the server, so the request has been processed on return.
            self.conn.send_event(false, self.root, mask, event)?.check()?;
        } else {
            self.conn.configure_window(w, &ConfigureWindowAux::new().stack_mode(StackMode::ABOVE))?.check()?;
            self.conn.set_input_focus(xproto::InputFocus::PARENT, w, x11rb::CURRENT_TIME)?.check()?;
        }
        Ok(())
    }
}
