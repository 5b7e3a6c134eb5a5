//! Creating a wgpu device: on a real GPU, or on Mesa's lavapipe (software Vulkan) where there is
//! none, as in CI.

use thiserror::Error;

/// What to install when no adapter is found (Debian and Ubuntu).
pub const LAVAPIPE_HINT: &str = "install Mesa's software Vulkan driver (lavapipe): \
    `sudo apt-get install mesa-vulkan-drivers` on Debian or Ubuntu, or a GPU driver";

#[derive(Debug, Error)]
pub enum GpuError {
    #[error("no GPU adapter found for backends {backends:?}: {source}; {hint}", hint = LAVAPIPE_HINT)]
    NoAdapter {
        backends: wgpu::Backends,
        source: wgpu::RequestAdapterError,
    },
    #[error("could not create a device on {adapter}: {source}")]
    RequestDevice {
        adapter: String,
        source: wgpu::RequestDeviceError,
    },
    #[error("reading back a GPU buffer failed: {0}")]
    Readback(String),
    #[error("GPU validation error: {0}")]
    Validation(String),
}

/// The backends to try, in order: `WGPU_BACKEND` when set; otherwise the primary ones (Vulkan,
/// Metal, DirectX 12), then OpenGL only if none of them has an adapter. Creating a GL instance
/// where Vulkan works would only log EGL errors on a machine without a GPU.
pub fn backend_choices() -> Vec<wgpu::Backends> {
    match std::env::var("WGPU_BACKEND") {
        Ok(_) => vec![wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all())],
        Err(_) => vec![wgpu::Backends::PRIMARY, wgpu::Backends::SECONDARY],
    }
}

/// An instance, adapter, device and queue, and the pipelines compiled for the device (per target
/// format): what the headless commands and the window each hold once.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub cache: super::pipelines::PipelineCache,
}

impl Gpu {
    /// A device without a window, on whatever adapter exists. Backends and debug flags follow the
    /// environment (`WGPU_BACKEND`, `WGPU_DEBUG`, `WGPU_VALIDATION`, ...).
    pub fn headless() -> Result<Self, GpuError> {
        Self::headless_with(super::textures::TEXTURE_COMPRESSION)
    }

    /// `headless`, asking for the optional `features` (of `textures::TEXTURE_COMPRESSION`) the
    /// adapter has; `Features::empty()` makes a device that samples no block format, as a GPU
    /// without them would.
    pub fn headless_with(features: wgpu::Features) -> Result<Self, GpuError> {
        let mut last = None;
        for backends in backend_choices() {
            let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
            desc.flags = wgpu::InstanceFlags::from_build_config();
            desc.backends = backends;
            let desc = desc.with_env();
            let instance = wgpu::Instance::new(desc);
            let options = wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            };
            match pollster::block_on(instance.request_adapter(&options)) {
                Ok(adapter) => return Self::on(instance, adapter, features),
                Err(source) => last = Some(GpuError::NoAdapter { backends, source }),
            }
        }
        Err(last.unwrap_or(GpuError::Readback("no backend to try".into())))
    }

    fn on(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        features: wgpu::Features,
    ) -> Result<Self, GpuError> {
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("skinscope"),
            required_features: adapter.features() & features & super::textures::TEXTURE_COMPRESSION,
            required_limits: wgpu::Limits::default(),
            ..Default::default()
        }))
        .map_err(|source| GpuError::RequestDevice {
            adapter: describe(&adapter.get_info()),
            source,
        })?;
        Ok(Self::from_parts(instance, adapter, device, queue))
    }

    /// A device already made (the window's), with a fresh pipeline cache.
    pub fn from_parts(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Self {
        let cache = super::pipelines::PipelineCache::new(&device);
        Self {
            instance,
            adapter,
            device,
            queue,
            cache,
        }
    }

    /// The adapter in words, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`.
    pub fn describe(&self) -> String {
        describe(&self.adapter.get_info())
    }

    /// The adapter's kind, for the skin pass's `Auto`.
    pub fn adapter_kind(&self) -> crate::display::AdapterKind {
        use crate::display::AdapterKind;
        match self.adapter.get_info().device_type {
            wgpu::DeviceType::DiscreteGpu => AdapterKind::DiscreteGpu,
            wgpu::DeviceType::IntegratedGpu => AdapterKind::IntegratedGpu,
            wgpu::DeviceType::Cpu => AdapterKind::Cpu,
            _ => AdapterKind::Other,
        }
    }

    /// Copies `size` bytes of `source` (which needs `COPY_SRC`) back to the CPU, waiting for the
    /// queue.
    pub fn read_buffer(&self, source: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        read_buffer(&self.device, &self.queue, source, size)
    }
}

/// Copies `size` bytes of `source` (which needs `COPY_SRC`) back to the CPU, waiting for the
/// queue.
pub fn read_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    source: &wgpu::Buffer,
    size: u64,
) -> Result<Vec<u8>, GpuError> {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    encoder.copy_buffer_to_buffer(source, 0, &staging, 0, size);
    queue.submit([encoder.finish()]);
    let (sender, receiver) = std::sync::mpsc::channel();
    staging.map_async(wgpu::MapMode::Read, .., move |result| {
        // The receiver waits below; a send can only fail if it is gone.
        let _ = sender.send(result);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    receiver
        .recv()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let bytes = staging
        .get_mapped_range(..)
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .to_vec();
    staging.unmap();
    Ok(bytes)
}

fn describe(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{} ({}) ({:?}, {:?})",
        info.name, info.driver_info, info.backend, info.device_type
    )
}
