//! The GPU side of the window: instance, surface, device, the character renderer and egui's.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(not(target_arch = "wasm32"))]
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use super::AppError;
use super::surface::Surface;
use crate::character::Character;
use crate::draw;
use crate::render::environment::EnvironmentMaps;
#[cfg(not(target_arch = "wasm32"))]
use crate::render::gpu::backend_choices;
use crate::render::gpu::{Gpu, GpuError};
use crate::render::renderer::Renderer;
use crate::viewer::Viewer;

pub struct Gfx {
    pub window: Arc<Window>,
    pub surface: Surface,
    /// The instance, adapter, device, queue and pipeline cache, in one place.
    pub gpu: Gpu,
    pub renderer: Renderer,
    /// The post-skin deformers the renderer holds, packed.
    deformers: draw::deformers::Deformers,
    /// The viewer's `environment.changes` the renderer is lit from, and the maps prefiltered
    /// for it (kept when the renderer is rebuilt for another character or crowd).
    environment_shown: Option<u64>,
    environment_maps: Option<(u64, Arc<EnvironmentMaps>)>,
    pub egui_ctx: egui::Context,
    pub egui_state: egui_winit::State,
    pub egui_renderer: egui_wgpu::Renderer,
    /// Set by wgpu when the device is lost (driver reset, GPU removed): the next frame rebuilds.
    lost: Arc<AtomicBool>,
}

/// An instance, the window's surface and an adapter that can draw into it, trying the backends
/// of `choices` in order. On the desktop the instance knows the window system (`display`); in a
/// browser, WebGPU is tried only where the browser has an adapter for it, since a canvas that
/// gave a WebGPU context can give no WebGL2 one.
async fn adapter_for(
    display: Option<winit::event_loop::OwnedDisplayHandle>,
    window: &Arc<Window>,
    choices: &[wgpu::Backends],
) -> Result<(wgpu::Instance, wgpu::Surface<'static>, wgpu::Adapter), AppError> {
    let mut last = AppError::Surface("no backend to try".into());
    for &backends in choices {
        let mut desc = match display.clone() {
            Some(display) => wgpu::InstanceDescriptor::new_with_display_handle(Box::new(display)),
            None => wgpu::InstanceDescriptor::new_without_display_handle(),
        };
        desc.flags = wgpu::InstanceFlags::from_build_config();
        desc.backends = backends;
        let desc = desc.with_env();
        let instance = if cfg!(target_arch = "wasm32") {
            wgpu::util::new_instance_with_webgpu_detection(desc).await
        } else {
            wgpu::Instance::new(desc)
        };
        let surface = match instance.create_surface(window.clone()) {
            Ok(surface) => surface,
            Err(e) => {
                last = AppError::Surface(format!("{backends:?}: {e}"));
                continue;
            }
        };
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            compatible_surface: Some(&surface),
            ..Default::default()
        };
        match instance.request_adapter(&options).await {
            Ok(adapter) => return Ok((instance, surface, adapter)),
            Err(source) => last = GpuError::NoAdapter { backends, source }.into(),
        }
    }
    Err(last)
}

impl Gfx {
    /// A window of `size` logical pixels and its GPU side.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(
        event_loop: &ActiveEventLoop,
        viewer: &Viewer,
        size: (u32, u32),
    ) -> Result<Self, AppError> {
        let attributes = Window::default_attributes()
            .with_title("skinscope")
            .with_inner_size(winit::dpi::LogicalSize::new(size.0, size.1));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| AppError::Window(e.to_string()))?,
        );
        Self::blocking(event_loop, window, viewer)
    }

    /// `with_window`, waited for: the desktop's way. Also what recovers from a lost device (the
    /// window stays).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn blocking(
        event_loop: &ActiveEventLoop,
        window: Arc<Window>,
        viewer: &Viewer,
    ) -> Result<Self, AppError> {
        let display = Some(event_loop.owned_display_handle());
        pollster::block_on(Self::with_window(
            display,
            window,
            &viewer.character,
            &backend_choices(),
            None,
        ))
    }

    /// The GPU side of a window: instance, surface, device, renderers, on the first of the
    /// `choices` of backends that has an adapter. `on_error` takes the device's uncaptured
    /// errors (wgpu's default panics).
    pub async fn with_window(
        display: Option<winit::event_loop::OwnedDisplayHandle>,
        window: Arc<Window>,
        character: &Character,
        choices: &[wgpu::Backends],
        on_error: Option<Arc<dyn wgpu::UncapturedErrorHandler>>,
    ) -> Result<Self, AppError> {
        let (instance, surface, adapter) = adapter_for(display, &window, choices).await?;
        // WebGL2 cannot give WebGPU's limits; it gets its own, at the adapter's resolution.
        let limits = if adapter.get_info().backend == wgpu::Backend::Gl {
            wgpu::Limits::downlevel_webgl2_defaults().using_resolution(adapter.limits())
        } else {
            wgpu::Limits::default()
        };
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("skinscope window"),
                // KTX2 textures go to the GPU in the block formats it samples.
                required_features: adapter.features()
                    & crate::render::textures::TEXTURE_COMPRESSION,
                required_limits: limits,
                ..Default::default()
            })
            .await
            .map_err(AppError::Device)?;
        if let Some(handler) = on_error {
            device.on_uncaptured_error(handler);
        }
        let lost = Arc::new(AtomicBool::new(false));
        let flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            log::error!("the GPU device was lost ({reason:?}): {message}");
            flag.store(true, Ordering::SeqCst);
        });
        let inner = window.inner_size();
        let surface = Surface::new(surface, &adapter, &device, (inner.width, inner.height))?;
        let gpu = Gpu::from_parts(instance, adapter, device, queue);
        let renderer = Renderer::with_cache(
            &gpu.cache,
            &gpu.device,
            &gpu.queue,
            character,
            surface.srgb_format(),
            draw::capacity(character, 1),
        );
        let device = &gpu.device;
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(
            device,
            surface.format(),
            egui_wgpu::RendererOptions::default(),
        );
        Ok(Self {
            window,
            surface,
            gpu,
            renderer,
            deformers: Default::default(),
            environment_shown: None,
            environment_maps: None,
            egui_ctx,
            egui_state,
            egui_renderer,
            lost,
        })
    }

    /// Whether the device was lost since it was made.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// A renderer for the viewer's character and `copies` copies of it, replacing the old one.
    pub fn rebuild_renderer(&mut self, viewer: &Viewer, copies: usize) {
        self.renderer = Renderer::with_cache(
            &self.gpu.cache,
            &self.gpu.device,
            &self.gpu.queue,
            &viewer.character,
            self.surface.srgb_format(),
            draw::capacity(&viewer.character, copies),
        );
        self.environment_shown = None;
    }

    /// The renderer holds the post-skin deformers the viewer's frame draws with (direct delta
    /// mush's Ω, the muscles, the ML deformer), packed again and uploaded when one changed,
    /// and is lit by the viewer's environment.
    pub fn sync_deformers(&mut self, viewer: &Viewer) {
        let assets = draw::deformers::assets_of(&viewer.pose, viewer.ddm.current.as_ref());
        let words = self.deformers.hold(&viewer.character, assets);
        (self.renderer).set_deformers(&self.gpu.device, &self.gpu.queue, words);
        self.sync_environment(viewer);
    }

    /// The renderer lit by the viewer's environment: prefiltered once each time it changes.
    fn sync_environment(&mut self, viewer: &Viewer) {
        let changes = viewer.environment.changes;
        if self.environment_shown == Some(changes) {
            return;
        }
        let device = &self.gpu.device;
        let maps = match (&viewer.environment.current, &self.environment_maps) {
            (None, _) => Arc::new(EnvironmentMaps::placeholder(device)),
            (Some(_), Some((made, maps))) if *made == changes => maps.clone(),
            (Some(image), _) => {
                let maps = Arc::new(EnvironmentMaps::prefilter(device, &self.gpu.queue, image));
                self.environment_maps = Some((changes, maps.clone()));
                maps
            }
        };
        self.renderer.set_environment(device, maps);
        self.environment_shown = Some(changes);
    }

    /// The renderer's buffers resized for `copies` copies of the same character: nothing is
    /// uploaded or compiled again.
    pub fn resize_renderer(&mut self, copies: usize) {
        let capacity = crate::render::renderer::Capacity {
            copies,
            ..self.renderer.capacity()
        };
        self.renderer.resize(&self.gpu.device, capacity);
    }

    /// The overlay buffer grown to hold `lines` line vertices (`Renderer::fit_lines`).
    pub fn fit_lines(&mut self, lines: usize) {
        self.renderer.fit_lines(&self.gpu.device, lines);
    }

    /// The largest crowd of the viewer's character this device can draw (`render --crowd`'s
    /// bound too).
    pub fn crowd_limit(&self, viewer: &Viewer) -> usize {
        draw::crowd_limit(&self.gpu.device.limits(), &viewer.character)
    }

    pub fn window_size(&self) -> (u32, u32) {
        let inner = self.window.inner_size();
        (inner.width, inner.height)
    }

    pub fn free_textures(&mut self, ids: &[egui::TextureId]) {
        for id in ids {
            self.egui_renderer.free_texture(id);
        }
    }
}
