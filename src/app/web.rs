//! The window on a browser page: the same `App` (viewer, panel, renderer, frame) drawing into
//! the page's canvas, with what a page does its own way.
//!
//! - The GPU is set up asynchronously (a page cannot wait): WebGPU where the browser has an
//!   adapter for it, else WebGL2 (`backend=` forces either).
//! - Files come from the page's file input ("Open..." and "Add clips from..." click it) or are
//!   dropped on the page, read through the browser's file API: a page reads only what the user
//!   gave it. A `.gltf` is given with its buffers and images, all selected or dropped together.
//! - The URL's parameters (`page::PageParams`) fetch a model from the page's own server and pose
//!   the first frame as the command line does.
//! - The canvas says where it stands, for scripts: `data-frame-drawn` (the backend's name) once
//!   a frame of the asked-for pose is on it, `data-error` with a message when something failed.

use std::cell::{Cell, RefCell};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::platform::web::{EventLoopExtWebSys, WindowAttributesExtWebSys};
use winit::window::Window;

use super::gfx::Gfx;
use super::page::{PageBackend, PageParams};
use super::{App, AppError, AppOptions, DialogFor};
use crate::import::Reach;
use crate::import::given::GivenFiles;
use crate::viewer::Viewer;

/// The canvas the page draws into, and its file input.
const CANVAS_ID: &str = "skinscope";
const INPUT_ID: &str = "skinscope-files";

/// Files given to the page, read, and what they are for.
struct Given {
    files: Result<GivenFiles, String>,
    purpose: DialogFor,
    /// Fetched for the URL's `model`: its pose parameters apply once it is shown.
    from_url: bool,
}

/// What the page adds to the window's state.
#[derive(Default)]
pub(super) struct Page {
    params: PageParams,
    /// The GPU being set up; its result, once there.
    gfx: Rc<RefCell<Option<Result<Gfx, AppError>>>>,
    /// Files read and waiting to be opened.
    given: Rc<RefCell<Vec<Given>>>,
    /// What the next picked files are for.
    picking: Rc<Cell<Option<DialogFor>>>,
    /// Whether the URL's model is still being fetched.
    fetching: Rc<Cell<bool>>,
    /// The URL's pose is applied.
    posed: bool,
    /// The viewer's character generation the GPU is being set up for.
    built_for: u64,
    /// Frames drawn since the asked-for state was shown (the canvas is marked at the second:
    /// the first may still carry the panel's previous layout).
    frames_ready: u32,
    /// The backend drawn with, for the mark.
    backend: &'static str,
}

/// Starts the page: the built-in character, the URL's parameters, the canvas's window.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| fail(&format!("panicked: {info}"))));
    let _ = log::set_logger(&ConsoleLog).map(|()| log::set_max_level(log::LevelFilter::Warn));
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (params, bad_params) = match PageParams::parse(&query) {
        Ok(p) => (p, None),
        Err(e) => (PageParams::parse("").unwrap_or_default(), Some(e)),
    };
    let character = match crate::builtin::character() {
        Ok(c) => c,
        Err(e) => return fail(&e.to_string()),
    };
    let mut viewer = Viewer::new(character, None);
    viewer.asset_reach = Reach::Given(GivenFiles::default());
    if let Some(e) = bad_params {
        fail(&e);
        viewer.load_error = Some(e);
    }
    let options = AppOptions {
        size: params.size.unwrap_or((0, 0)),
        no_panel: !params.panel,
        ..Default::default()
    };
    let mut app = App::new(options, viewer, Vec::new());
    app.page.params = params;
    listen_for_files(&app.page);
    if let Some(model) = app.page.params.model.clone() {
        app.page.fetching.set(true);
        let (given, fetching) = (app.page.given.clone(), app.page.fetching.clone());
        spawn_local(async move {
            let files = fetch_model(&model).await;
            given.borrow_mut().push(Given {
                files,
                purpose: DialogFor::Open,
                from_url: true,
            });
            fetching.set(false);
        });
    }
    match EventLoop::new() {
        Ok(event_loop) => event_loop.spawn_app(app),
        Err(e) => fail(&format!("cannot start the event loop: {e}")),
    }
}

impl App {
    /// The canvas's window, and its GPU set up in the background.
    pub(super) fn start_page(&mut self, event_loop: &ActiveEventLoop) {
        let Some(canvas) = element(CANVAS_ID).and_then(|e| e.dyn_into().ok()) else {
            return fail(&format!("the page has no canvas #{CANVAS_ID}"));
        };
        let canvas: web_sys::HtmlCanvasElement = canvas;
        if let Some((w, h)) = self.page.params.size {
            let style = canvas.style();
            let _ = style.set_property("width", &format!("{w}px"));
            let _ = style.set_property("height", &format!("{h}px"));
        }
        let attributes = Window::default_attributes()
            .with_canvas(Some(canvas))
            .with_prevent_default(true);
        let window = match event_loop.create_window(attributes) {
            Ok(w) => Arc::new(w),
            Err(e) => return fail(&format!("cannot use the canvas: {e}")),
        };
        let choices: &'static [wgpu::Backends] = match self.page.params.backend {
            PageBackend::Auto => &[wgpu::Backends::BROWSER_WEBGPU, wgpu::Backends::GL],
            PageBackend::WebGpu => &[wgpu::Backends::BROWSER_WEBGPU],
            PageBackend::WebGl2 => &[wgpu::Backends::GL],
        };
        let slot = self.page.gfx.clone();
        let character = self.viewer.character.clone();
        self.page.built_for = self.viewer.character_generation();
        spawn_local(async move {
            // A GPU error shows where the page's scripts and users look, and the page keeps
            // drawing what it can.
            let on_error: Arc<dyn wgpu::UncapturedErrorHandler> =
                Arc::new(|e| fail(&format!("the GPU: {e}")));
            let made =
                Gfx::with_window(None, window.clone(), &character, choices, Some(on_error)).await;
            *slot.borrow_mut() = Some(made);
            // Wakes the event loop, which sleeps until an event: the next frame installs it.
            window.request_redraw();
        });
    }

    /// Between frames: the GPU once it is set up, and the files given since.
    pub(super) fn poll_page(&mut self) {
        if self.gfx.is_none() {
            let made = self.page.gfx.borrow_mut().take();
            match made {
                Some(Ok(gfx)) => {
                    self.page.backend = match gfx.gpu.adapter.get_info().backend {
                        wgpu::Backend::BrowserWebGpu => "webgpu",
                        _ => "webgl2",
                    };
                    self.installed(gfx, self.page.built_for);
                }
                Some(Err(e)) => fail(&format!("cannot draw on this page: {e}")),
                None => {}
            }
        }
        let given: Vec<Given> = std::mem::take(&mut *self.page.given.borrow_mut());
        for g in given {
            self.open_given(g);
        }
        if !self.page.posed && !self.page.fetching.get() && self.page.params.model.is_none() {
            self.pose_from_url();
        }
    }

    /// Opens files given to the page: a model replaces the character (a `.bvh` dropped adds its
    /// take as a clip, as on the desktop), or clips are added.
    fn open_given(&mut self, given: Given) {
        let files = match given.files {
            Ok(files) => files,
            Err(e) => return self.page_error(e),
        };
        let Some(model) = files.model().map(str::to_owned) else {
            let names: Vec<&str> = files.names().collect();
            return self.page_error(format!(
                "none of the files given ({}) is a .glb, .gltf or .bvh",
                names.join(", ")
            ));
        };
        let path = Path::new(&model);
        let reach = Reach::Given(files);
        if given.purpose == DialogFor::Clips {
            // The character's own files stay its reach; the clips' are read once.
            let kept = std::mem::replace(&mut self.viewer.asset_reach, reach);
            let added = self.viewer.add_clips(path);
            self.viewer.asset_reach = kept;
            if let Err(e) = added {
                self.page_error(e.to_string());
            }
            return;
        }
        self.viewer.asset_reach = reach;
        if let Err(e) = self.viewer.open(path) {
            return self.page_error(e.to_string());
        }
        mark("data-character", &self.viewer.character.name);
        // An earlier file's error no longer stands.
        if let Some(canvas) = element(CANVAS_ID) {
            let _ = canvas.remove_attribute("data-error");
        }
        if given.from_url {
            self.pose_from_url();
        }
    }

    /// The URL's pose applied to the character shown (once).
    fn pose_from_url(&mut self) {
        self.page.posed = true;
        match self.page.params.pose(&mut self.viewer) {
            Ok(commands) => self.commands.extend(commands),
            Err(e) => self.page_error(e),
        }
    }

    fn page_error(&mut self, e: String) {
        fail(&e);
        self.viewer.load_error = Some(e);
    }

    /// "Open..." and "Add clips from...": the page's file input, clicked.
    pub(super) fn browse(&mut self, purpose: DialogFor) {
        if purpose == DialogFor::Recording {
            self.viewer.load_error =
                Some("a page cannot write files: record in the desktop app".into());
            return;
        }
        self.page.picking.set(Some(purpose));
        match element(INPUT_ID).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            Some(input) => input.click(),
            None => {
                self.viewer.load_error = Some(format!("the page has no file input #{INPUT_ID}"))
            }
        }
    }

    /// After a frame is presented: the canvas is marked drawn once the asked-for state has
    /// been on it for a frame.
    pub(super) fn page_drawn(&mut self) {
        let waiting = !self.page.posed || self.page.fetching.get();
        if waiting || self.page.frames_ready >= 2 {
            return;
        }
        self.page.frames_ready += 1;
        if self.page.frames_ready >= 2 {
            mark("data-character", &self.viewer.character.name);
            mark("data-frame-drawn", self.page.backend);
        }
    }
}

/// An element of the page by id.
fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// A failure the page shows: on the console and as the canvas's `data-error`.
fn fail(message: &str) {
    web_sys::console::error_1(&format!("skinscope: {message}").into());
    mark("data-error", message);
}

/// An attribute of the canvas set, for scripts.
fn mark(attribute: &str, value: &str) {
    if let Some(canvas) = element(CANVAS_ID) {
        let _ = canvas.set_attribute(attribute, value);
    }
}

/// The file input's choices and the files dropped on the page, read and queued for `poll_page`.
fn listen_for_files(page: &Page) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(input) = element(INPUT_ID) {
        let (given, picking) = (page.given.clone(), page.picking.clone());
        let target = input.clone();
        let on_change = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            let Ok(input) = target.clone().dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            let purpose = picking.take().unwrap_or(DialogFor::Open);
            if let Some(list) = input.files() {
                read_files(list, purpose, given.clone());
            }
            // The same file picked again changes the input again.
            input.set_value("");
        });
        let _ =
            input.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget();
    }
    let on_drag =
        Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| e.prevent_default());
    let _ = document.add_event_listener_with_callback("dragover", on_drag.as_ref().unchecked_ref());
    on_drag.forget();
    let given = page.given.clone();
    let on_drop = Closure::<dyn FnMut(web_sys::DragEvent)>::new(move |e: web_sys::DragEvent| {
        e.prevent_default();
        let Some(list) = e.data_transfer().and_then(|d| d.files()) else {
            return;
        };
        // As on the desktop: a take dropped alone adds its clips; anything else opens.
        let names: Vec<String> = (0..list.length())
            .filter_map(|i| list.get(i))
            .map(|f| f.name().to_ascii_lowercase())
            .collect();
        let purpose = if !names.is_empty() && names.iter().all(|n| n.ends_with(".bvh")) {
            DialogFor::Clips
        } else {
            DialogFor::Open
        };
        read_files(list, purpose, given.clone());
    });
    let _ = document.add_event_listener_with_callback("drop", on_drop.as_ref().unchecked_ref());
    on_drop.forget();
}

/// Reads every file of `list` (each at most the model limit) into one `Given`.
fn read_files(list: web_sys::FileList, purpose: DialogFor, given: Rc<RefCell<Vec<Given>>>) {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    spawn_local(async move {
        let mut read = Vec::with_capacity(files.len());
        let mut total = 0u64;
        for file in files {
            // A folder's files keep their place in it; a file on its own its name.
            let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
                .ok()
                .and_then(|v| v.as_string())
                .filter(|p| !p.is_empty());
            let name = relative.unwrap_or_else(|| file.name());
            let size = file.size() as u64;
            total += size;
            if total > crate::files::MAX_MODEL_BYTES {
                let most = crate::files::MAX_MODEL_BYTES;
                given.borrow_mut().push(Given {
                    files: Err(format!(
                        "{name}: the files given are over {most} bytes in all"
                    )),
                    purpose,
                    from_url: false,
                });
                return;
            }
            match JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => read.push((name, js_sys::Uint8Array::new(&buffer).to_vec())),
                Err(e) => {
                    given.borrow_mut().push(Given {
                        files: Err(format!("{name}: cannot be read: {e:?}")),
                        purpose,
                        from_url: false,
                    });
                    return;
                }
            }
        }
        given.borrow_mut().push(Given {
            files: Ok(GivenFiles::new(read)),
            purpose,
            from_url: false,
        });
    });
}

/// The URL's model fetched from the page's own server (another origin is refused): a `.glb` or
/// `.bvh`, or a `.gltf` and the buffers and images its URIs name on that server, each keyed by
/// its path there.
async fn fetch_model(model: &str) -> Result<GivenFiles, String> {
    let window = web_sys::window().ok_or("no window")?;
    let base = window.location().href().map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::new_with_base(model, &base)
        .map_err(|_| format!("model={model}: not a URL"))?;
    let page = web_sys::Url::new(&base).map_err(|_| format!("the page's address {base}"))?;
    if url.origin() != page.origin() {
        return Err(format!(
            "model={model}: not on the page's own server ({}); serve it beside the page",
            page.origin()
        ));
    }
    let bytes = fetch(&window, &url.href()).await?;
    let mut files = Vec::new();
    if url.pathname().to_ascii_lowercase().ends_with(".gltf") {
        for uri in relative_uris(&bytes).map_err(|e| format!("{model}: {e}"))? {
            let Ok(dependency) = web_sys::Url::new_with_base(&uri, &url.href()) else {
                continue;
            };
            if dependency.origin() != url.origin() {
                continue;
            }
            let bytes = fetch(&window, &dependency.href()).await?;
            files.push((server_path(&dependency), bytes));
        }
    }
    let key = server_path(&url);
    files.push((key, bytes));
    Ok(GivenFiles::new(files))
}

/// A URL's path on its server, decoded, without the leading `/`: its key among given files.
fn server_path(url: &web_sys::Url) -> String {
    let path = url.pathname();
    let decoded = js_sys::decode_uri_component(&path)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or(path);
    decoded.trim_start_matches('/').to_string()
}

/// The relative URIs of a glTF's buffers and images (not `data:` URIs).
fn relative_uris(json: &[u8]) -> Result<Vec<String>, String> {
    let value: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| format!("not glTF JSON: {e}"))?;
    let mut uris = Vec::new();
    for list in ["buffers", "images"] {
        for item in value[list].as_array().into_iter().flatten() {
            if let Some(uri) = item["uri"].as_str().filter(|u| !u.starts_with("data:")) {
                uris.push(uri.to_string());
            }
        }
    }
    Ok(uris)
}

/// The bytes at `url`, or why not.
async fn fetch(window: &web_sys::Window, url: &str) -> Result<Vec<u8>, String> {
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("{url}: cannot be fetched: {e:?}"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("{url}: no response"))?;
    if !response.ok() {
        return Err(format!("{url}: the server answered {}", response.status()));
    }
    let buffer = response
        .array_buffer()
        .map_err(|e| format!("{url}: {e:?}"))?;
    let buffer = JsFuture::from(buffer)
        .await
        .map_err(|e| format!("{url}: {e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// `log` on the browser's console.
struct ConsoleLog;

impl log::Log for ConsoleLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record) {
        let line = format!("{}: {}", record.target(), record.args()).into();
        match record.level() {
            log::Level::Error => web_sys::console::error_1(&line),
            log::Level::Warn => web_sys::console::warn_1(&line),
            _ => web_sys::console::log_1(&line),
        }
    }

    fn flush(&self) {}
}
