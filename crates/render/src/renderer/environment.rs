//! The renderer's side of an HDR environment: binding a prefiltered one in every view's scene
//! group, and drawing it behind the character when the background shows it.

use std::sync::Arc;

use super::Renderer;
use crate::environment::EnvironmentMaps;
use crate::panorama::Background;

impl Renderer {
    /// Lights the scene with `maps` (a file's, prefiltered once and shared between renderers;
    /// or `EnvironmentMaps::placeholder` for the generated sky again), rebinding every view's
    /// scene groups.
    pub fn set_environment(&mut self, device: &wgpu::Device, maps: Arc<EnvironmentMaps>) {
        self.environment = maps;
        self.rebind_scene_groups(device);
    }

    /// Builds the background's pipeline when `options` first shows the environment.
    pub(super) fn ensure_background(&self, device: &wgpu::Device, options: &super::DrawOptions) {
        if options.environment.background != Background::Flat {
            self.pipelines.ensure_background(device, &self.layouts);
        }
    }

    /// The environment behind everything else, when `options` asks for it (not in silhouettes).
    pub(super) fn draw_background(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        scene_group: &wgpu::BindGroup,
        options: &super::DrawOptions,
    ) {
        if options.environment.background == Background::Flat || options.silhouette {
            return;
        }
        if let Some(pipeline) = self.pipelines.background() {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, scene_group, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}
