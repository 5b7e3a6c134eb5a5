//! The window's surface (wgpu examples' `SurfaceWrapper`): configured for the window's size,
//! reconfigured on resize or loss, and handing out the next texture to draw into.

/// The window's surface and its configuration.
pub struct Surface {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
}

/// What acquiring a texture gave.
pub enum Acquired {
    Texture(wgpu::SurfaceTexture),
    /// Nothing to draw into this time (resized under us, lost, timed out, occluded): skip the
    /// frame; a lost or outdated surface has been configured again.
    Skip,
    /// The surface reported a validation error: the window cannot draw.
    Failed(super::AppError),
}

impl Surface {
    /// Configures `surface` for a window of `size` physical pixels (when it has a size). The
    /// surface stores a linear-encoded format, what egui draws into; the 3D view draws through
    /// an sRGB view of the same texture (its shaders output linear colour). Where a surface's
    /// texture cannot be viewed in another format (WebGL2), it stores sRGB and both draw into
    /// it (egui's renderer encodes for an sRGB target itself).
    pub fn new(
        surface: wgpu::Surface<'static>,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        size: (u32, u32),
    ) -> Result<Self, super::AppError> {
        let mut config = surface
            .get_default_config(adapter, size.0.max(1), size.1.max(1))
            .ok_or(super::AppError::Draw("supports no format on this adapter"))?;
        let reinterprets = (adapter.get_downlevel_capabilities().flags)
            .contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS);
        let srgb = config.format.add_srgb_suffix();
        if reinterprets {
            config.format = config.format.remove_srgb_suffix();
            config.view_formats = vec![srgb];
        } else if surface.get_capabilities(adapter).formats.contains(&srgb) {
            config.format = srgb;
            config.view_formats = Vec::new();
        }
        config.usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        config.present_mode = wgpu::PresentMode::AutoVsync;
        let mut wrapped = Self { surface, config };
        wrapped.resize(device, size);
        Ok(wrapped)
    }

    /// Follows the window's size; a minimised window (zero size) keeps the old configuration and
    /// is not drawn until its size returns.
    pub fn resize(&mut self, device: &wgpu::Device, (width, height): (u32, u32)) {
        if width == 0 || height == 0 {
            self.config.width = 0;
            self.config.height = 0;
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(device, &self.config);
    }

    /// Physical pixels drawn into (0 while minimised).
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// The surface's (linear) format: egui draws into it.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// The sRGB view format: the 3D view draws through it.
    pub fn srgb_format(&self) -> wgpu::TextureFormat {
        self.config.format.add_srgb_suffix()
    }

    /// The next texture to draw into. `window_size` reconfigures a lost or outdated surface.
    pub fn acquire(&mut self, device: &wgpu::Device, window_size: (u32, u32)) -> Acquired {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => Acquired::Texture(t),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.resize(device, window_size);
                Acquired::Skip
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                Acquired::Skip
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                Acquired::Failed(super::AppError::Draw("reported a validation error"))
            }
        }
    }
}
