//! Offscreen colour targets: drawn into without a window and read back (the application writes
//! them as images).

use super::gpu::GpuError;

/// The offscreen colour format: 8-bit sRGB, what PNG stores.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// An offscreen colour target that can be copied back to the CPU.
pub struct Offscreen {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub size: (u32, u32),
}

impl Offscreen {
    /// An sRGB RGBA8 target.
    pub fn new(device: &wgpu::Device, size: (u32, u32)) -> Self {
        Self::with_format(device, size, COLOR_FORMAT)
    }

    /// A target of `format` (RGBA8 or BGRA8, sRGB or not), e.g. a window surface's.
    pub fn with_format(
        device: &wgpu::Device,
        size: (u32, u32),
        format: wgpu::TextureFormat,
    ) -> Self {
        Self::with_formats(device, size, format, &[])
    }

    /// A target of `format` that can also be viewed as `view_formats` (its sRGB twin, say).
    pub fn with_formats(
        device: &wgpu::Device,
        size: (u32, u32),
        format: wgpu::TextureFormat,
        view_formats: &[wgpu::TextureFormat],
    ) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen"),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats,
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self {
            texture,
            view,
            size,
        }
    }

    /// Copies the texture back as tightly packed RGBA8 rows (the GPU copy pads rows to 256 bytes;
    /// BGRA targets are swizzled).
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<u8>, GpuError> {
        let (width, height) = self.size;
        let row = 4 * width;
        let padded =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: (padded * height) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        queue.submit([encoder.finish()]);
        let bytes = super::gpu::read_buffer(device, queue, &buffer, (padded * height) as u64)?;
        let mut rgba: Vec<u8> = bytes
            .chunks_exact(padded as usize)
            .flat_map(|r| &r[..row as usize])
            .copied()
            .collect();
        let format = self.texture.format();
        if matches!(
            format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        ) {
            for p in rgba.chunks_exact_mut(4) {
                p.swap(0, 2);
            }
        }
        Ok(rgba)
    }
}
