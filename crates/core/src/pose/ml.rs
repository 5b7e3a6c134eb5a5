//! The ML deformer at runtime: each frame, the pose's features through the model
//! on the CPU (microseconds), into the K weights of its bind-space components that the skin
//! pass (`shaders/ml.wgsl`) and the CPU reference (`posed`) add before skinning.
//!
//! In the skin pass, `ml_corrective` sums the components (vertex-major, after the muscles' words
//! in the slot's one storage binding); the weights ride at the end of the muscles' uniform
//! (64,256 bytes, within WebGPU's 64 KiB). Every instance of the trained mesh follows the
//! corrective; a crowd does not (one pose). Normals are not corrected: they stay linear blend's,
//! as the muscles' do.

use std::sync::Arc;

use super::CharacterPose;
use super::MlModel;

/// A frame's ML deformer: the model and the weights this frame's pose gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct MlCorrective {
    pub model: Arc<MlModel>,
    /// K weights.
    pub weights: Vec<f32>,
    features: Vec<f32>,
}

impl MlCorrective {
    /// Vertex `v` of primitive `p`'s corrective, bind space, where `mesh` is the model's.
    pub fn offset(&self, mesh: usize, p: usize, v: usize) -> glam::Vec3 {
        if mesh == self.model.mesh as usize {
            self.model.corrective(p, v, &self.weights)
        } else {
            glam::Vec3::ZERO
        }
    }
}

impl CharacterPose {
    /// The ML deformer's weights for this frame's palette (`model` none: off). Reuses the
    /// buffers of the last frame's.
    pub(super) fn infer_ml(&mut self, model: Option<&Arc<MlModel>>) {
        let Some(model) = model else {
            self.ml = None;
            return;
        };
        let mut ml = self.ml.take().unwrap_or_else(|| MlCorrective {
            model: model.clone(),
            weights: Vec::new(),
            features: Vec::new(),
        });
        if !Arc::ptr_eq(&ml.model, model) {
            ml.model = model.clone();
        }
        let palette = self
            .instance_palette(model.instance as usize)
            .unwrap_or(&[]);
        model.infer(palette, &mut ml.features, &mut ml.weights);
        self.ml = Some(ml);
    }
}
