//! Arrays the shaders index (the palettes, the per-draw data, the morph weights and deltas):
//! storage buffers where the device has them in vertex shaders, else (WebGL2) textures of
//! 32-bit words that the shaders read texel by texel (`shaders/data_textures.wgsl`).
//!
//! A texture holds 16 bytes a texel (`Rgba32Uint`), `ROW_TEXELS` texels a row: byte `b` of the
//! array is in texel `b / 16`, at column `texel % ROW_TEXELS`, row `texel / ROW_TEXELS`. Floats
//! are stored as their bits and read back with `bitcast`, so every value arrives exactly.

/// How a device's shaders read the arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataMode {
    /// Storage buffers (WebGPU, Vulkan, Metal, DirectX 12, desktop GL 4.3).
    Storage,
    /// Textures of words (WebGL2, GLES 3.0): no storage buffer in a vertex shader there.
    Textures,
}

impl DataMode {
    /// What `device` can bind: storage buffers in the vertex stage when it has four or more
    /// (a mesh pipeline's vertex stage reads three at once, the morph deltas' group four).
    pub fn for_device(device: &wgpu::Device) -> Self {
        let limits = device.limits();
        if limits.max_storage_buffers_per_shader_stage >= 4
            && limits.max_storage_buffer_binding_size > 0
        {
            DataMode::Storage
        } else {
            DataMode::Textures
        }
    }

    /// The layout entry of an array at `binding` read by `visibility`.
    pub fn layout_entry(
        self,
        binding: u32,
        visibility: wgpu::ShaderStages,
    ) -> wgpu::BindGroupLayoutEntry {
        let ty = match self {
            DataMode::Storage => wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            DataMode::Textures => wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Uint,
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
        };
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty,
            count: None,
        }
    }
}

/// Texels a row of a words texture (16 KiB): a palette of 2,048 joints takes two rows.
pub const ROW_TEXELS: u32 = 1024;

const TEXEL_BYTES: u64 = 16;

/// An array on the GPU: a storage buffer or a texture of words.
pub enum Words {
    Buffer(wgpu::Buffer),
    Texture {
        texture: wgpu::Texture,
        view: wgpu::TextureView,
    },
}

impl Words {
    /// Room for `bytes` (at least one texel's worth), written by `write`. `usage` adds to a
    /// buffer's (`COPY_SRC` for a read-back); a texture can be written and bound only.
    pub fn new(
        device: &wgpu::Device,
        mode: DataMode,
        label: &str,
        bytes: u64,
        usage: wgpu::BufferUsages,
    ) -> Self {
        let bytes = bytes.max(TEXEL_BYTES);
        match mode {
            DataMode::Storage => Words::Buffer(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.next_multiple_of(4),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | usage,
                mapped_at_creation: false,
            })),
            DataMode::Textures => {
                let texels = bytes.div_ceil(TEXEL_BYTES) as u32;
                let texture = device.create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d {
                        width: ROW_TEXELS.min(texels),
                        height: texels.div_ceil(ROW_TEXELS),
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba32Uint,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                let view = texture.create_view(&Default::default());
                Words::Texture { texture, view }
            }
        }
    }

    /// An array holding `bytes` from the start.
    pub fn with_contents(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        mode: DataMode,
        label: &str,
        bytes: &[u8],
        usage: wgpu::BufferUsages,
    ) -> Self {
        let words = Self::new(device, mode, label, bytes.len() as u64, usage);
        words.write(queue, bytes);
        words
    }

    /// `bytes` written from the array's start (a multiple of four bytes; what lies beyond
    /// stays).
    pub fn write(&self, queue: &wgpu::Queue, bytes: &[u8]) {
        match self {
            Words::Buffer(buffer) => queue.write_buffer(buffer, 0, bytes),
            Words::Texture { texture, .. } => write_texels(queue, texture, bytes),
        }
    }

    /// The array bound at `binding` of a group.
    pub fn entry(&self, binding: u32) -> wgpu::BindGroupEntry<'_> {
        wgpu::BindGroupEntry {
            binding,
            resource: match self {
                Words::Buffer(buffer) => buffer.as_entire_binding(),
                Words::Texture { view, .. } => wgpu::BindingResource::TextureView(view),
            },
        }
    }

    /// The buffer, under storage buffers (what a compute pass binds).
    pub fn buffer(&self) -> Option<&wgpu::Buffer> {
        match self {
            Words::Buffer(buffer) => Some(buffer),
            Words::Texture { .. } => None,
        }
    }

    /// Bytes it holds at most.
    pub fn capacity(&self) -> u64 {
        match self {
            Words::Buffer(buffer) => buffer.size(),
            Words::Texture { texture, .. } => {
                u64::from(texture.width()) * u64::from(texture.height()) * TEXEL_BYTES
            }
        }
    }
}

/// `bytes` into the texture's texels from the first: whole rows at once, then the last row's
/// whole texels, then its last texel zero-padded.
fn write_texels(queue: &wgpu::Queue, texture: &wgpu::Texture, bytes: &[u8]) {
    let width = u64::from(texture.width());
    let row_bytes = width * TEXEL_BYTES;
    let whole_rows = (bytes.len() as u64 / row_bytes).min(u64::from(texture.height()));
    let write = |origin: (u32, u32), size: (u32, u32), data: &[u8]| {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d {
                    x: origin.0,
                    y: origin.1,
                    z: 0,
                },
                aspect: wgpu::TextureAspect::All,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(size.0 * TEXEL_BYTES as u32),
                rows_per_image: Some(size.1),
            },
            wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
        );
    };
    if whole_rows > 0 {
        let end = (whole_rows * row_bytes) as usize;
        write((0, 0), (width as u32, whole_rows as u32), &bytes[..end]);
    }
    if whole_rows >= u64::from(texture.height()) {
        return;
    }
    let rest = &bytes[(whole_rows * row_bytes) as usize..];
    let texels = rest.len() / TEXEL_BYTES as usize;
    let row = whole_rows as u32;
    if texels > 0 {
        let end = texels * TEXEL_BYTES as usize;
        write((0, row), (texels as u32, 1), &rest[..end]);
    }
    let tail = &rest[texels * TEXEL_BYTES as usize..];
    if !tail.is_empty() && (texels as u64) < width {
        let mut last = [0u8; TEXEL_BYTES as usize];
        last[..tail.len()].copy_from_slice(tail);
        write((texels as u32, row), (1, 1), &last);
    }
}
