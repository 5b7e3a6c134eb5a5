//! The window: winit's event loop, where the viewer state, the egui panel and the renderer meet.
//! None of them knows about winit; this folder is the only one that does.
//!
//! - `surface`: the window's surface (acquire, reconfigure on resize or loss);
//! - `gfx`: the device, the character renderer and egui's;
//! - `frame`: one frame, in order: input and panel -> commands -> clocks -> pose once -> render;
//! - `panel`: the panel laid out (or its last layout kept) and drawn over the 3D view;
//! - `input`: keys, camera drags and picking clicks;
//! - `recent`: the recent-files list between sessions;
//! - `page`: a browser page's URL parameters; `web`: the page itself (its canvas, files, URL),
//!   built for the browser only.

mod frame;
mod gfx;
pub mod input;
pub mod page;
mod panel;
mod recent;
mod surface;
#[cfg(target_arch = "wasm32")]
mod web;

use std::path::PathBuf;

use web_time::Instant;

use glam::Vec2;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::ActiveEventLoop;
#[cfg(not(target_arch = "wasm32"))]
use winit::event_loop::EventLoop;
use winit::keyboard::ModifiersState;
use winit::window::WindowId;

#[cfg(not(target_arch = "wasm32"))]
use crate::builtin;
use crate::draw::view::LineVertex;
use crate::render::camera::{Camera, OrbitCamera};
use crate::render::renderer::DrawOptions;
use crate::viewer::{Controls, UiCommand, Viewer};
use gfx::Gfx;

/// What the command line asks of the window.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// A file to open at start (default: the built-in character).
    pub file: Option<PathBuf>,
    /// The folder tree models may read (`--asset-root`; default: each model's own folder).
    pub reach: crate::import::Reach,
    /// Draw this many frames, then exit (for tests and screenshots).
    pub frames: Option<u64>,
    /// Save the last frame drawn (panel included) as PNG.
    pub screenshot: Option<PathBuf>,
    /// Inner size of the window in logical pixels.
    pub size: (u32, u32),
    /// Start with the panel hidden (H shows it): the 3D view fills the window.
    pub no_panel: bool,
    /// A panel section to open and scroll to at start.
    pub open_section: Option<crate::viewer::PanelSection>,
    /// Listen for a live motion-capture stream at start: a loopback address and the BVH whose
    /// hierarchy its motion lines follow.
    pub mocap: Option<(String, PathBuf)>,
    /// An HDR environment to light with at start, and how it is turned, scaled and shown.
    pub environment: Option<PathBuf>,
    pub environment_view: crate::environment::EnvironmentView,
    /// A history saved by the window to replay at start (`--replay`), on `file`'s model.
    pub replay: Option<PathBuf>,
    /// A retarget source to open beside the character at start (`--retarget-from`), with a map
    /// file (`--retarget-map`) read over its auto-mapping.
    pub retarget: Option<(PathBuf, Option<PathBuf>)>,
}

/// What the renderer draws, from the panel's toggles. A selected joint is marked even with the
/// bones hidden.
pub fn draw_options(c: &Controls) -> DrawOptions {
    DrawOptions {
        mesh: c.view.show_mesh,
        wireframe: c.view.wireframe,
        // The line overlay: the bones, and whatever else draws lines (the muscles too).
        bones: c.view.show_bones
            || c.selected_joint.is_some()
            || c.motion.show_scene
            || c.motion.reach_ik
            || (c.muscles.show && c.muscles.rig.is_some()),
        grid: c.view.grid,
        shadows: c.view.shadows,
        environment: c.environment.view,
        vertex_colors: c.colors_shown(),
        tone_map: c.view.tone_map,
        exposure_ev: c.view.exposure_ev,
        skinning: c.skinning.method,
        skin_pass: c.skinning.skin_pass,
        ..Default::default()
    }
}

/// Why the window stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Open(#[from] crate::viewer::OpenError),
    #[error(transparent)]
    Mocap(#[from] crate::mocap::MocapError),
    #[error("{0}")]
    Environment(String),
    #[error("--replay {0}")]
    Replay(String),
    #[error("{0}")]
    Retarget(String),
    #[error("cannot open a window: {0}")]
    Window(String),
    #[error("cannot draw into the window: {0}")]
    Surface(String),
    #[error("{0}")]
    NoAdapter(#[from] crate::render::gpu::GpuError),
    #[error("cannot create a GPU device: {0}; {hint}", hint = crate::render::gpu::LAVAPIPE_HINT)]
    Device(wgpu::RequestDeviceError),
    #[error("the GPU device was lost and could not be recreated: {0}")]
    DeviceLost(Box<AppError>),
    #[error("the window's surface {0}")]
    Draw(&'static str),
    #[error("the screenshot: {0}")]
    Screenshot(String),
    #[error(transparent)]
    Image(#[from] crate::image_file::ImageError),
    #[error("the event loop failed: {0}")]
    EventLoop(#[from] winit::error::EventLoopError),
}

/// Opens the window and runs until it is closed (or `frames` are drawn).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(options: AppOptions) -> Result<(), AppError> {
    let character = builtin::character().map_err(crate::viewer::OpenError::from)?;
    let mut viewer = Viewer::new(character, None);
    let saved_recent = recent::load();
    viewer.recent.clone_from(&saved_recent);
    viewer.asset_reach = options.reach.clone();
    if let Some(file) = &options.file {
        // A bad file leaves the built-in character on screen and the error in the panel; in a
        // batch run (--frames) it is the run's failure, and nothing is drawn.
        if let Err(e) = viewer.open(file) {
            if options.frames.is_some() {
                return Err(e.into());
            }
            log::error!("{e}");
        }
    }
    viewer.controls.view.show_panel = !options.no_panel;
    viewer.controls.view.open_section = options.open_section.map(crate::viewer::OpenSection::new);
    viewer.controls.environment.view = options.environment_view;
    if let Some(path) = &options.environment {
        // Asked for on the command line: one that does not load stops the start.
        viewer
            .load_environment(path)
            .map_err(AppError::Environment)?;
    }
    if let Some(path) = &options.replay {
        // Asked for on the command line: a history that does not fit the model stops the start.
        viewer.replay(path).map_err(AppError::Replay)?;
    }
    if let Some((source, map)) = &options.retarget {
        // Asked for on the command line: a source or map that does not read stops the start.
        viewer
            .open_retarget(source, map.as_deref())
            .map_err(AppError::Retarget)?;
        if options.open_section.is_none() {
            viewer.controls.view.open_section = Some(crate::viewer::OpenSection::new(
                crate::viewer::PanelSection::Retarget,
            ));
        }
    }
    if let Some((address, skeleton)) = &options.mocap {
        // Asked for on the command line: a stream that cannot be listened to stops the start.
        viewer.listen(address, skeleton)?;
    }
    let event_loop = EventLoop::new().map_err(|e| AppError::Window(e.to_string()))?;
    let mut app = App::new(options, viewer, saved_recent);
    event_loop.run_app(&mut app)?;
    if app.options.frames.is_some() && app.result.is_ok() {
        // A batch run reports what the panel's statistics showed last, for testers.
        let c = app.viewer.stats.cpu;
        eprintln!(
            "skinscope: window CPU time a frame (averaged): {:.3} ms; panel {:.3}, pose {:.3}, overlays {:.3}, uploads {:.3}",
            c.total_ms, c.panel_ms, c.pose_ms, c.overlay_ms, c.upload_ms
        );
    }
    app.result
}

#[derive(Default)]
struct Mouse {
    position: Option<Vec2>,
    /// Where the left button went down and how far the cursor has moved since (pixels).
    press: Option<(Vec2, f32)>,
    left: bool,
    middle: bool,
    modifiers: ModifiersState,
}

struct App {
    options: AppOptions,
    viewer: Viewer,
    gfx: Option<Gfx>,
    camera: Option<OrbitCamera>,
    /// The character's placement the camera last followed.
    followed: Option<glam::Vec3>,
    last_frame: Instant,
    frames_drawn: u64,
    mouse: Mouse,
    /// The steering keys held (motion matching).
    steer: input::SteerKeys,
    /// Commands from the keyboard since the last frame, applied with the panel's.
    commands: Vec<UiCommand>,
    bones: Vec<LineVertex>,
    /// The main view's deformer values, packed by the extract each frame.
    deformer_values: Vec<[f32; 4]>,
    result: Result<(), AppError>,
    /// The panel's last layout (drawn again while it is current).
    panel: Option<panel::PanelOutput>,
    /// This frame's CPU time so far (the panel's statistics).
    cpu: frame::CpuClock,
    /// The viewer's camera requests of this frame, for the render step.
    camera_requests: Vec<crate::viewer::WindowRequest>,
    /// Where the main view's last frame was skinned (what a click picks from).
    skinned_in: crate::display::SkinPass,
    /// The viewer's character generation the renderer was built for.
    character_generation: u64,
    /// The last frame's main 3D view (points), camera and aspect: what a click picks in.
    last_view: Option<(egui::Rect, Camera, f32)>,
    /// Copies the renderer was built for.
    renderer_copies: usize,
    /// A file dialog running on its own thread (the window keeps drawing); `None` when closed.
    dialog: Option<std::sync::mpsc::Receiver<Option<PathBuf>>>,
    /// When the running dialog was opened.
    dialog_opened: Option<Instant>,
    /// The running dialog picks a file to add clips from (not to open).
    dialog_for: DialogFor,
    /// The recording's offscreen renderer ("Record..."), made at its first frame.
    record_frames: Option<crate::draw::headless::Frames>,
    /// The recent-files list as last saved.
    saved_recent: Vec<PathBuf>,
    /// The browser page around the canvas: its parameters, the files given to it, the GPU being
    /// set up.
    #[cfg(target_arch = "wasm32")]
    page: web::Page,
}

impl App {
    /// The window's state before its first frame, over `viewer`.
    fn new(options: AppOptions, viewer: Viewer, saved_recent: Vec<PathBuf>) -> Self {
        Self {
            options,
            viewer,
            gfx: None,
            camera: None,
            followed: None,
            last_frame: Instant::now(),
            frames_drawn: 0,
            mouse: Mouse::default(),
            steer: input::SteerKeys::default(),
            commands: Vec::new(),
            bones: Vec::new(),
            deformer_values: Vec::new(),
            result: Ok(()),
            character_generation: 0,
            last_view: None,
            renderer_copies: 1,
            dialog: None,
            dialog_opened: None,
            dialog_for: DialogFor::Open,
            record_frames: None,
            saved_recent,
            skinned_in: crate::display::SkinPass::Vertex,
            camera_requests: Vec::new(),
            cpu: frame::CpuClock::started(Instant::now()),
            panel: None,
            #[cfg(target_arch = "wasm32")]
            page: Default::default(),
        }
    }

    /// The GPU side made, its renderer for the viewer's character of generation `built_for`
    /// (a page's character may have changed while the device was set up: the next frame builds
    /// the renderer again then): the window draws from its next frame.
    fn installed(&mut self, mut gfx: Gfx, built_for: u64) {
        log::info!("adapter: {:?}", gfx.gpu.adapter.get_info());
        // The window's size now: a page's canvas may have been sized (and said so) while the
        // device was being set up.
        if gfx.surface.size() != gfx.window_size() {
            let size = gfx.window_size();
            gfx.surface.resize(&gfx.gpu.device, size);
        }
        self.viewer.crowd_limit = gfx.crowd_limit(&self.viewer);
        self.gfx = Some(gfx);
        self.character_generation = built_for;
        self.last_frame = Instant::now();
    }
}

/// Why the file dialog cannot open, when that can be told before trying: on Linux rfd asks the
/// desktop portal over the D-Bus session bus (`session_bus`: `DBUS_SESSION_BUS_ADDRESS`).
pub fn file_dialog_problem(session_bus: Option<&std::ffi::OsStr>) -> Option<String> {
    let needs_portal = cfg!(all(unix, not(target_os = "macos")));
    (needs_portal && session_bus.is_none_or(|b| b.is_empty())).then(|| {
        "the file dialog needs a desktop portal (xdg-desktop-portal on a D-Bus session), and there is none: type the file's path above, or drop the file on the window".to_string()
    })
}

/// What a file dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DialogFor {
    Open,
    Clips,
    /// A source for the Retarget section.
    RetargetSource,
    /// A save dialog: the recording starts at the chosen path.
    Recording,
}

/// A dialog that closes this quickly was not answered by a person: its portal failed.
const DIALOG_FAILED_WITHIN: std::time::Duration = std::time::Duration::from_millis(300);

#[cfg(not(target_arch = "wasm32"))]
impl App {
    /// Opens a file dialog on its own thread; its answer arrives through `self.dialog`. When no
    /// dialog can open, the panel says why.
    fn browse(&mut self, dialog_for: DialogFor) {
        if self.dialog.is_some() {
            return;
        }
        if let Some(problem) =
            file_dialog_problem(std::env::var_os("DBUS_SESSION_BUS_ADDRESS").as_deref())
        {
            self.viewer.load_error = Some(problem);
            return;
        }
        self.dialog_opened = Some(Instant::now());
        self.dialog_for = dialog_for;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let (title, name, extensions): (_, _, &[&str]) = match dialog_for {
                DialogFor::Clips => (
                    "Add clips from a file",
                    "BVH or glTF",
                    &["bvh", "gltf", "glb"],
                ),
                DialogFor::RetargetSource => (
                    "Retarget from a file",
                    "BVH or glTF",
                    &["bvh", "gltf", "glb"],
                ),
                DialogFor::Open => (
                    "Open a glTF character",
                    "glTF or BVH",
                    &["gltf", "glb", "bvh"],
                ),
                DialogFor::Recording => (
                    "Record the view to",
                    "GIF, animated PNG or MP4",
                    &["gif", "png", "mp4"],
                ),
            };
            let dialog = rfd::FileDialog::new()
                .set_title(title)
                .add_filter(name, extensions);
            let picked = match dialog_for {
                DialogFor::Recording => dialog.set_file_name("skinscope.gif").save_file(),
                DialogFor::Open | DialogFor::Clips | DialogFor::RetargetSource => {
                    dialog.pick_file()
                }
            };
            let _ = sender.send(picked);
        });
        self.dialog = Some(receiver);
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        #[cfg(not(target_arch = "wasm32"))]
        match Gfx::new(event_loop, &self.viewer, self.options.size) {
            Ok(gfx) => {
                let generation = self.viewer.character_generation();
                self.installed(gfx, generation);
            }
            Err(e) => {
                self.result = Err(e);
                event_loop.exit();
            }
        }
        #[cfg(target_arch = "wasm32")]
        self.start_page(event_loop);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gfx) = self.gfx.as_mut() else { return };
        let response = gfx.egui_state.on_window_event(&gfx.window, &event);
        let egui_wants_pointer =
            gfx.egui_ctx.is_pointer_over_egui() || gfx.egui_ctx.egui_is_using_pointer();
        let egui_wants_keys = gfx.egui_ctx.egui_wants_keyboard_input();
        let height = gfx.surface.size().1.max(1) as f32;
        match &event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => gfx
                .surface
                .resize(&gfx.gpu.device, (size.width, size.height)),
            WindowEvent::RedrawRequested => self.frame(event_loop),
            WindowEvent::DroppedFile(path) => {
                // A motion-capture take goes onto the character shown; a model replaces it.
                let bvh = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("bvh"));
                self.commands.push(if bvh {
                    UiCommand::AddClips(path.clone())
                } else {
                    UiCommand::Open(path.clone())
                });
            }
            WindowEvent::ModifiersChanged(m) => self.mouse.modifiers = m.state(),
            // A steering key let go counts wherever it is let go, so none sticks.
            WindowEvent::KeyboardInput { event: key, .. }
                if key.state == ElementState::Released =>
            {
                self.steer.set(&key.logical_key, false);
            }
            WindowEvent::KeyboardInput { event: key, .. }
                if !response.consumed && !egui_wants_keys && key.state == ElementState::Pressed =>
            {
                let steering =
                    self.viewer.controls.matching.on && self.steer.set(&key.logical_key, true);
                if !steering {
                    self.handle_key(&key.logical_key);
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Released,
                ..
            } => self.camera_input(&event, height),
            WindowEvent::MouseInput { .. } | WindowEvent::MouseWheel { .. }
                if !response.consumed && !egui_wants_pointer =>
            {
                self.camera_input(&event, height)
            }
            WindowEvent::CursorMoved { .. } => {
                if response.consumed && !self.mouse.left && !self.mouse.middle {
                    self.mouse.position = None;
                }
                self.camera_input(&event, height);
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        #[cfg(target_arch = "wasm32")]
        self.poll_page();
        if let Some(gfx) = &self.gfx {
            gfx.window.request_redraw();
        }
    }
}
