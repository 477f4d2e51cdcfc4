"""What PyTorch 2.13 shows for its functions and classes a program reaches through gradcli's
namespaces: `print(torch.sin)` is `<built-in method sin of type object at 0x...>`,
`print(F.relu)` `<function relu at 0x...>`, `print(F.linear)` `<built-in function linear>`,
`print(torch.optim.SGD)` `<class 'torch.optim.sgd.SGD'>`, and their `__module__`,
`__qualname__` and `__name__` (`torch.linalg.norm.__name__` is PyTorch's `linalg_norm`).

The table was read off PyTorch 2.13 (one line per name: `namespace.name kind module qualname
name`, kind M a built-in method of a type object, F a Python function, B a built-in function,
C a class; `.` the namespace, the name or the qualname itself, `V:` PyTorch's
`_VariableFunctionsClass.`). It is parsed the first time a program prints or names one.
"""

from __future__ import annotations

from types import MethodType
from typing import Any

TABLE = """\
torch.BoolTensor C . . .
torch.ByteTensor C . . .
torch.DoubleTensor C . . .
torch.FloatTensor C . . .
torch.Generator C torch._C . .
torch.IntTensor C . . .
torch.LongTensor C . . .
torch.Size C . . .
torch._dynamo.reset F . . .
torch.abs M . V:abs .
torch.abs_ M . V:abs_ .
torch.absolute M . V:absolute .
torch.acos M . V:acos .
torch.acos_ M . V:acos_ .
torch.acosh M . V:acosh .
torch.acosh_ M . V:acosh_ .
torch.adaptive_avg_pool1d M . V:adaptive_avg_pool1d .
torch.adaptive_max_pool1d M . V:adaptive_max_pool1d .
torch.add M . V:add .
torch.addbmm M . V:addbmm .
torch.addcdiv M . V:addcdiv .
torch.addcmul M . V:addcmul .
torch.addmm M . V:addmm .
torch.addmv M . V:addmv .
torch.addr M . V:addr .
torch.all M . V:all .
torch.allclose M . V:allclose .
torch.alpha_dropout M . V:alpha_dropout .
torch.amax M . V:amax .
torch.amin M . V:amin .
torch.aminmax M . V:aminmax .
torch.any M . V:any .
torch.arange M . V:arange .
torch.arccos M . V:arccos .
torch.arccos_ M . V:arccos_ .
torch.arccosh M . V:arccosh .
torch.arccosh_ M . V:arccosh_ .
torch.arcsin M . V:arcsin .
torch.arcsin_ M . V:arcsin_ .
torch.arcsinh M . V:arcsinh .
torch.arcsinh_ M . V:arcsinh_ .
torch.arctan M . V:arctan .
torch.arctan2 M . V:arctan2 .
torch.arctan_ M . V:arctan_ .
torch.arctanh M . V:arctanh .
torch.arctanh_ M . V:arctanh_ .
torch.are_deterministic_algorithms_enabled F . . .
torch.argmax M . V:argmax .
torch.argmin M . V:argmin .
torch.argsort M . V:argsort .
torch.argwhere M . V:argwhere .
torch.as_tensor M . V:as_tensor .
torch.asarray M . V:asarray .
torch.asin M . V:asin .
torch.asin_ M . V:asin_ .
torch.asinh M . V:asinh .
torch.asinh_ M . V:asinh_ .
torch.atan M . V:atan .
torch.atan2 M . V:atan2 .
torch.atan_ M . V:atan_ .
torch.atanh M . V:atanh .
torch.atanh_ M . V:atanh_ .
torch.atleast_1d F torch.functional . .
torch.atleast_2d F torch.functional . .
torch.atleast_3d F torch.functional . .
torch.autograd.Variable C torch.autograd.variable . .
torch.autograd.backward F . . .
torch.autograd.detect_anomaly C torch.autograd.anomaly_mode . .
torch.autograd.enable_grad C torch.autograd.grad_mode . .
torch.autograd.forward_ad.dual_level C . . .
torch.autograd.forward_ad.enter_dual_level F . . .
torch.autograd.forward_ad.exit_dual_level F . . .
torch.autograd.forward_ad.make_dual F . . .
torch.autograd.forward_ad.unpack_dual F . . .
torch.autograd.function.once_differentiable F . . .
torch.autograd.functional.hessian F . . .
torch.autograd.functional.hvp F . . .
torch.autograd.functional.jacobian F . . .
torch.autograd.functional.jvp F . . .
torch.autograd.functional.vhp F . . .
torch.autograd.functional.vjp F . . .
torch.autograd.grad F . . .
torch.autograd.gradcheck F torch.autograd.gradcheck . .
torch.autograd.gradcheck.GradcheckError C . . .
torch.autograd.gradcheck.gradcheck F . . .
torch.autograd.gradcheck.gradgradcheck F . . .
torch.autograd.gradgradcheck F torch.autograd.gradcheck . .
torch.autograd.graph.disable_saved_tensors_hooks F . . .
torch.autograd.graph.register_multi_grad_hook F . . .
torch.autograd.graph.save_on_cpu C . . .
torch.autograd.graph.saved_tensors_hooks C . . .
torch.autograd.inference_mode C torch.autograd.grad_mode . .
torch.autograd.no_grad C torch.autograd.grad_mode . .
torch.autograd.set_detect_anomaly C torch.autograd.anomaly_mode . .
torch.autograd.set_grad_enabled C torch.autograd.grad_mode . .
torch.autograd.variable.Variable C . . .
torch.avg_pool1d M . V:avg_pool1d .
torch.baddbmm M . V:baddbmm .
torch.batch_norm M . V:batch_norm .
torch.bernoulli M . V:bernoulli .
torch.bilinear M . V:bilinear .
torch.binary_cross_entropy_with_logits M . V:binary_cross_entropy_with_logits .
torch.bincount M . V:bincount .
torch.bitwise_and M . V:bitwise_and .
torch.bitwise_left_shift M . V:bitwise_left_shift .
torch.bitwise_not M . V:bitwise_not .
torch.bitwise_or M . V:bitwise_or .
torch.bitwise_right_shift M . V:bitwise_right_shift .
torch.bitwise_xor M . V:bitwise_xor .
torch.block_diag F torch.functional . .
torch.bmm M . V:bmm .
torch.broadcast_shapes F torch.functional . .
torch.broadcast_tensors F torch.functional . .
torch.broadcast_to M . V:broadcast_to .
torch.bucketize M . V:bucketize .
torch.can_cast M . V:can_cast .
torch.cartesian_prod F torch.functional . .
torch.cat M . V:cat .
torch.cdist F torch.functional . .
torch.ceil M . V:ceil .
torch.ceil_ M . V:ceil_ .
torch.celu M . V:celu .
torch.celu_ M . V:celu_ .
torch.chain_matmul F torch.functional . .
torch.cholesky M . V:cholesky .
torch.cholesky_solve M . V:cholesky_solve .
torch.chunk M . V:chunk .
torch.clamp M . V:clamp .
torch.clamp_ M . V:clamp_ .
torch.clamp_max M . V:clamp_max .
torch.clamp_max_ M . V:clamp_max_ .
torch.clamp_min M . V:clamp_min .
torch.clamp_min_ M . V:clamp_min_ .
torch.clip M . V:clip .
torch.clone M . V:clone .
torch.column_stack M . V:column_stack .
torch.combinations M . V:combinations .
torch.compile F . . .
torch.concat M . V:concat .
torch.concatenate M . V:concatenate .
torch.conj M . V:conj .
torch.conj_physical M . V:conj_physical .
torch.conv1d M . V:conv1d .
torch.conv2d M . V:conv2d .
torch.conv3d M . V:conv3d .
torch.conv_transpose1d M . V:conv_transpose1d .
torch.conv_transpose2d M . V:conv_transpose2d .
torch.conv_transpose3d M . V:conv_transpose3d .
torch.copysign M . V:copysign .
torch.corrcoef M . V:corrcoef .
torch.cos M . V:cos .
torch.cos_ M . V:cos_ .
torch.cosh M . V:cosh .
torch.cosh_ M . V:cosh_ .
torch.cosine_embedding_loss M . V:cosine_embedding_loss .
torch.cosine_similarity M . V:cosine_similarity .
torch.count_nonzero M . V:count_nonzero .
torch.cov M . V:cov .
torch.cross M . V:cross .
torch.cuda.device_count F . . .
torch.cuda.empty_cache F torch.cuda.memory . .
torch.cuda.is_available F . . .
torch.cuda.manual_seed F torch.cuda.random . .
torch.cuda.manual_seed_all F torch.cuda.random . .
torch.cuda.synchronize F . . .
torch.cummax M . V:cummax .
torch.cummin M . V:cummin .
torch.cumprod M . V:cumprod .
torch.cumsum M . V:cumsum .
torch.cumulative_trapezoid M . V:cumulative_trapezoid .
torch.deg2rad M . V:deg2rad .
torch.det M . V:det .
torch.detach M . V:detach .
torch.detach_ M . V:detach_ .
torch.device C . . .
torch.diag M . V:diag .
torch.diag_embed M . V:diag_embed .
torch.diagflat M . V:diagflat .
torch.diagonal M . V:diagonal .
torch.diff M . V:diff .
torch.digamma M . V:digamma .
torch.dist M . V:dist .
torch.distributions.Bernoulli C torch.distributions.bernoulli . .
torch.distributions.Beta C torch.distributions.beta . .
torch.distributions.Categorical C torch.distributions.categorical . .
torch.distributions.Cauchy C torch.distributions.cauchy . .
torch.distributions.Chi2 C torch.distributions.chi2 . .
torch.distributions.Dirichlet C torch.distributions.dirichlet . .
torch.distributions.Exponential C torch.distributions.exponential . .
torch.distributions.Gamma C torch.distributions.gamma . .
torch.distributions.Geometric C torch.distributions.geometric . .
torch.distributions.HalfNormal C torch.distributions.half_normal . .
torch.distributions.Independent C torch.distributions.independent . .
torch.distributions.Laplace C torch.distributions.laplace . .
torch.distributions.LogNormal C torch.distributions.log_normal . .
torch.distributions.MultivariateNormal C torch.distributions.multivariate_normal . .
torch.distributions.Normal C torch.distributions.normal . .
torch.distributions.OneHotCategorical C torch.distributions.one_hot_categorical . .
torch.distributions.Poisson C torch.distributions.poisson . .
torch.distributions.Binomial C torch.distributions.binomial . .
torch.distributions.NegativeBinomial C torch.distributions.negative_binomial . .
torch.distributions.StudentT C torch.distributions.studentT . .
torch.distributions.Uniform C torch.distributions.uniform . .
torch.distributions.bernoulli.Bernoulli C . . .
torch.distributions.beta.Beta C . . .
torch.distributions.categorical.Categorical C . . .
torch.distributions.cauchy.Cauchy C . . .
torch.distributions.chi2.Chi2 C . . .
torch.distributions.dirichlet.Dirichlet C . . .
torch.distributions.exponential.Exponential C . . .
torch.distributions.gamma.Gamma C . . .
torch.distributions.geometric.Geometric C . . .
torch.distributions.half_normal.HalfNormal C . . .
torch.distributions.independent.Independent C . . .
torch.distributions.kl.kl_divergence F . . .
torch.distributions.kl_divergence F torch.distributions.kl . .
torch.distributions.laplace.Laplace C . . .
torch.distributions.log_normal.LogNormal C . . .
torch.distributions.multivariate_normal.MultivariateNormal C . . .
torch.distributions.normal.Normal C . . .
torch.distributions.one_hot_categorical.OneHotCategorical C . . .
torch.distributions.poisson.Poisson C . . .
torch.distributions.binomial.Binomial C . . .
torch.distributions.negative_binomial.NegativeBinomial C . . .
torch.distributions.studentT.StudentT C . . .
torch.distributions.uniform.Uniform C . . .
torch.div M . V:div .
torch.divide M . V:divide .
torch.dot M . V:dot .
torch.dropout M . V:dropout .
torch.dsplit M . V:dsplit .
torch.dstack M . V:dstack .
torch.einsum F torch.functional . .
torch.embedding M . V:embedding .
torch.empty M . V:empty .
torch.empty_like M . V:empty_like .
torch.enable_grad C torch.autograd.grad_mode . .
torch.eq M . V:eq .
torch.equal M . V:equal .
torch.erf M . V:erf .
torch.erf_ M . V:erf_ .
torch.erfc M . V:erfc .
torch.erfc_ M . V:erfc_ .
torch.erfinv M . V:erfinv .
torch.exp M . V:exp .
torch.exp2 M . V:exp2 .
torch.exp2_ M . V:exp2_ .
torch.exp_ M . V:exp_ .
torch.expm1 M . V:expm1 .
torch.expm1_ M . V:expm1_ .
torch.eye M . V:eye .
torch.feature_alpha_dropout M . V:feature_alpha_dropout .
torch.fill_ M . V:fill_ .
torch.finfo C . . .
torch.fix M . V:fix .
torch.fix_ M . V:fix_ .
torch.flatten M . V:flatten .
torch.flip M . V:flip .
torch.fliplr M . V:fliplr .
torch.flipud M . V:flipud .
torch.float_power M . V:float_power .
torch.floor M . V:floor .
torch.floor_ M . V:floor_ .
torch.floor_divide M . V:floor_divide .
torch.fmax M . V:fmax .
torch.fmin M . V:fmin .
torch.fmod M . V:fmod .
torch.frac M . V:frac .
torch.frac_ M . V:frac_ .
torch.from_numpy M . V:from_numpy .
torch.full M . V:full .
torch.full_like M . V:full_like .
torch.func.functional_call F . . .
torch.func.grad F . . .
torch.func.grad_and_value F . . .
torch.func.hessian F . . .
torch.func.jacfwd F . . .
torch.func.jacrev F . . .
torch.func.jvp F . . .
torch.func.linearize F . . .
torch.func.stack_module_state F . . .
torch.func.vjp F . . .
torch.func.vmap F . . .
torch.gather M . V:gather .
torch.ge M . V:ge .
torch.ger M . V:ger .
torch.get_default_dtype B . . .
torch.get_rng_state F torch.random . .
torch.greater M . V:greater .
torch.greater_equal M . V:greater_equal .
torch.group_norm M . V:group_norm .
torch.gt M . V:gt .
torch.hardshrink M . V:hardshrink .
torch.heaviside M . V:heaviside .
torch.hinge_embedding_loss M . V:hinge_embedding_loss .
torch.histc M . V:histc .
torch.histogram M . V:histogram .
torch.hsplit M . V:hsplit .
torch.hstack M . V:hstack .
torch.hypot M . V:hypot .
torch.i0 M . V:i0 .
torch.i0_ M . V:i0_ .
torch.iinfo C . . .
torch.index_add M . V:index_add .
torch.index_copy M . V:index_copy .
torch.index_fill M . V:index_fill .
torch.index_put M . V:index_put .
torch.index_reduce M . V:index_reduce .
torch.index_select M . V:index_select .
torch.inference_mode C torch.autograd.grad_mode . .
torch.initial_seed F torch.random . .
torch.inner M . V:inner .
torch.instance_norm M . V:instance_norm .
torch.inverse M . V:inverse .
torch.is_anomaly_check_nan_enabled B . . .
torch.is_anomaly_enabled B . . .
torch.is_complex M . V:is_complex .
torch.is_conj M . V:is_conj .
torch.is_floating_point M . V:is_floating_point .
torch.is_grad_enabled B . . .
torch.is_inference M . V:is_inference .
torch.is_inference_mode_enabled B . . .
torch.is_neg M . V:is_neg .
torch.is_nonzero M . V:is_nonzero .
torch.is_same_size M . V:is_same_size .
torch.is_signed M . V:is_signed .
torch.is_tensor F . . .
torch.isclose M . V:isclose .
torch.isfinite M . V:isfinite .
torch.isin M . V:isin .
torch.isinf M . V:isinf .
torch.isnan M . V:isnan .
torch.isneginf M . V:isneginf .
torch.isposinf M . V:isposinf .
torch.jit.ignore F torch._jit_internal . .
torch.jit.script F torch.jit._script . .
torch.jit.trace F torch.jit._trace . .
torch.kl_div M . V:kl_div .
torch.kron M . V:kron .
torch.kthvalue M . V:kthvalue .
torch.layer_norm M . V:layer_norm .
torch.le M . V:le .
torch.lerp M . V:lerp .
torch.less M . V:less .
torch.less_equal M . V:less_equal .
torch.lgamma M . V:lgamma .
torch.linalg.cholesky B torch._C._linalg . linalg_cholesky
torch.linalg.cond B torch._C._linalg . linalg_cond
torch.linalg.cross B torch._C._linalg . linalg_cross
torch.linalg.det B torch._C._linalg . linalg_det
torch.linalg.eigh B torch._C._linalg . linalg_eigh
torch.linalg.eigvalsh B torch._C._linalg . linalg_eigvalsh
torch.linalg.inv B torch._C._linalg . linalg_inv
torch.linalg.lstsq B torch._C._linalg . linalg_lstsq
torch.linalg.matrix_exp B torch._C._linalg . linalg_matrix_exp
torch.linalg.matrix_norm B torch._C._linalg . linalg_matrix_norm
torch.linalg.matrix_power B torch._C._linalg . linalg_matrix_power
torch.linalg.matrix_rank B torch._C._linalg . linalg_matrix_rank
torch.linalg.multi_dot B torch._C._linalg . linalg_multi_dot
torch.linalg.norm B torch._C._linalg . linalg_norm
torch.linalg.pinv B torch._C._linalg . linalg_pinv
torch.linalg.qr B torch._C._linalg . linalg_qr
torch.linalg.slogdet B torch._C._linalg . linalg_slogdet
torch.linalg.solve B torch._C._linalg . linalg_solve
torch.linalg.solve_triangular B torch._C._linalg . linalg_solve_triangular
torch.linalg.svd B torch._C._linalg . linalg_svd
torch.linalg.svdvals B torch._C._linalg . linalg_svdvals
torch.linalg.vector_norm B torch._C._linalg . linalg_vector_norm
torch.linspace M . V:linspace .
torch.load F torch.serialization . .
torch.log M . V:log .
torch.log10 M . V:log10 .
torch.log10_ M . V:log10_ .
torch.log1p M . V:log1p .
torch.log1p_ M . V:log1p_ .
torch.log2 M . V:log2 .
torch.log2_ M . V:log2_ .
torch.log_ M . V:log_ .
torch.log_softmax M . V:log_softmax .
torch.logaddexp M . V:logaddexp .
torch.logaddexp2 M . V:logaddexp2 .
torch.logcumsumexp M . V:logcumsumexp .
torch.logdet M . V:logdet .
torch.logical_and M . V:logical_and .
torch.logical_not M . V:logical_not .
torch.logical_or M . V:logical_or .
torch.logical_xor M . V:logical_xor .
torch.logit M . V:logit .
torch.logit_ M . V:logit_ .
torch.logspace M . V:logspace .
torch.logsumexp M . V:logsumexp .
torch.lt M . V:lt .
torch.manual_seed F torch.random . .
torch.margin_ranking_loss M . V:margin_ranking_loss .
torch.masked_fill M . V:masked_fill .
torch.masked_scatter M . V:masked_scatter .
torch.masked_select M . V:masked_select .
torch.matmul M . V:matmul .
torch.matrix_exp M . V:matrix_exp .
torch.matrix_power M . V:matrix_power .
torch.max M . V:max .
torch.max_pool1d M . V:max_pool1d .
torch.max_pool1d_with_indices M . V:max_pool1d_with_indices .
torch.max_pool2d M . V:max_pool2d .
torch.max_pool3d M . V:max_pool3d .
torch.maximum M . V:maximum .
torch.mean M . V:mean .
torch.median M . V:median .
torch.meshgrid F torch.functional . .
torch.min M . V:min .
torch.minimum M . V:minimum .
torch.mm M . V:mm .
torch.mode M . V:mode .
torch.moveaxis M . V:moveaxis .
torch.movedim M . V:movedim .
torch.msort M . V:msort .
torch.mul M . V:mul .
torch.multinomial M . V:multinomial .
torch.multiply M . V:multiply .
torch.mv M . V:mv .
torch.mvlgamma M . V:mvlgamma .
torch.nan_to_num M . V:nan_to_num .
torch.nan_to_num_ M . V:nan_to_num_ .
torch.nanmean M . V:nanmean .
torch.nanmedian M . V:nanmedian .
torch.nanquantile M . V:nanquantile .
torch.nansum M . V:nansum .
torch.narrow M . V:narrow .
torch.ne M . V:ne .
torch.neg M . V:neg .
torch.neg_ M . V:neg_ .
torch.negative M . V:negative .
torch.nn.Buffer C torch.nn.parameter . .
torch.nn.functional.Tensor C torch . .
torch.nn.functional.adaptive_avg_pool1d M torch V:adaptive_avg_pool1d .
torch.nn.functional.adaptive_avg_pool2d F . . .
torch.nn.functional.adaptive_avg_pool3d F . . .
torch.nn.functional.adaptive_max_pool1d F . boolean_dispatch.<locals>.fn .
torch.nn.functional.adaptive_max_pool2d F . boolean_dispatch.<locals>.fn .
torch.nn.functional.alpha_dropout F . . .
torch.nn.functional.avg_pool1d M torch V:avg_pool1d .
torch.nn.functional.avg_pool2d B torch._C._nn . .
torch.nn.functional.avg_pool3d B torch._C._nn . .
torch.nn.functional.batch_norm F . . .
torch.nn.functional.bilinear M torch V:bilinear .
torch.nn.functional.binary_cross_entropy F . . .
torch.nn.functional.binary_cross_entropy_with_logits F . . .
torch.nn.functional.celu F . . .
torch.nn.functional.celu_ M torch V:celu_ .
torch.nn.functional.conv1d M torch V:conv1d .
torch.nn.functional.conv2d M torch V:conv2d .
torch.nn.functional.conv3d M torch V:conv3d .
torch.nn.functional.conv_transpose1d M torch V:conv_transpose1d .
torch.nn.functional.conv_transpose2d M torch V:conv_transpose2d .
torch.nn.functional.conv_transpose3d M torch V:conv_transpose3d .
torch.nn.functional.cosine_embedding_loss F . . .
torch.nn.functional.cosine_similarity M torch V:cosine_similarity .
torch.nn.functional.cross_entropy F . . .
torch.nn.functional.dropout F . . .
torch.nn.functional.dropout1d F . . .
torch.nn.functional.dropout2d F . . .
torch.nn.functional.dropout3d F . . .
torch.nn.functional.elu F . . .
torch.nn.functional.elu_ B torch._C._nn . .
torch.nn.functional.embedding F . . .
torch.nn.functional.embedding_bag F . . .
torch.nn.functional.feature_alpha_dropout F . . .
torch.nn.functional.fold F . . .
torch.nn.functional.gaussian_nll_loss F . . .
torch.nn.functional.gelu B torch._C._nn . .
torch.nn.functional.glu F . . .
torch.nn.functional.group_norm F . . .
torch.nn.functional.gumbel_softmax F . . .
torch.nn.functional.hardshrink M torch V:hardshrink .
torch.nn.functional.hardsigmoid F . . .
torch.nn.functional.hardswish F . . .
torch.nn.functional.hardtanh F . . .
torch.nn.functional.hardtanh_ B torch._C._nn . .
torch.nn.functional.hinge_embedding_loss F . . .
torch.nn.functional.huber_loss F . . .
torch.nn.functional.instance_norm F . . .
torch.nn.functional.interpolate F . . .
torch.nn.functional.kl_div F . . .
torch.nn.functional.l1_loss F . . .
torch.nn.functional.layer_norm F . . .
torch.nn.functional.leaky_relu F . . .
torch.nn.functional.leaky_relu_ B torch._C._nn . .
torch.nn.functional.linear B torch._C._nn . .
torch.nn.functional.local_response_norm F . . .
torch.nn.functional.log_softmax F . . .
torch.nn.functional.logsigmoid B torch._C._nn . log_sigmoid
torch.nn.functional.margin_ranking_loss F . . .
torch.nn.functional.max_pool1d F . boolean_dispatch.<locals>.fn .
torch.nn.functional.max_pool1d_with_indices F . . .
torch.nn.functional.max_pool2d F . boolean_dispatch.<locals>.fn .
torch.nn.functional.max_pool2d_with_indices F . . .
torch.nn.functional.max_pool3d F . boolean_dispatch.<locals>.fn .
torch.nn.functional.max_unpool1d F . . .
torch.nn.functional.max_unpool2d F . . .
torch.nn.functional.mish F . . .
torch.nn.functional.mse_loss F . . .
torch.nn.functional.multi_head_attention_forward F . . .
torch.nn.functional.multi_margin_loss F . . .
torch.nn.functional.multilabel_margin_loss F . . .
torch.nn.functional.multilabel_soft_margin_loss F . . .
torch.nn.functional.nll_loss F . . .
torch.nn.functional.normalize F . . .
torch.nn.functional.one_hot B torch._C._nn . .
torch.nn.functional.pad F . . .
torch.nn.functional.pairwise_distance M torch V:pairwise_distance .
torch.nn.functional.pixel_shuffle M torch V:pixel_shuffle .
torch.nn.functional.pixel_unshuffle M torch V:pixel_unshuffle .
torch.nn.functional.poisson_nll_loss F . . .
torch.nn.functional.prelu M torch V:prelu .
torch.nn.functional.relu F . . .
torch.nn.functional.relu6 F . . .
torch.nn.functional.relu_ M torch V:relu_ .
torch.nn.functional.rms_norm F . . .
torch.nn.functional.rrelu F . . .
torch.nn.functional.rrelu_ M torch V:rrelu_ .
torch.nn.functional.scaled_dot_product_attention B torch._C._nn . .
torch.nn.functional.selu F . . .
torch.nn.functional.selu_ M torch V:selu_ .
torch.nn.functional.sigmoid F . . .
torch.nn.functional.silu F . . .
torch.nn.functional.smooth_l1_loss F . . .
torch.nn.functional.soft_margin_loss F . . .
torch.nn.functional.softmax F . . .
torch.nn.functional.softmin F . . .
torch.nn.functional.softplus B torch._C._nn . .
torch.nn.functional.softshrink B torch._C._nn . .
torch.nn.functional.softsign F . . .
torch.nn.functional.tanh F . . .
torch.nn.functional.tanhshrink F . . .
torch.nn.functional.threshold F . . _threshold
torch.nn.functional.threshold_ M torch V:threshold_ .
torch.nn.functional.triplet_margin_loss F . . .
torch.nn.functional.unfold F . . .
torch.nn.functional.upsample F . . .
torch.nn.functional.upsample_nearest F . . .
torch.nn.init.calculate_gain F . . .
torch.nn.init.constant_ F . . .
torch.nn.init.dirac_ F . . .
torch.nn.init.eye_ F . . .
torch.nn.init.kaiming_normal_ F . . .
torch.nn.init.kaiming_uniform_ F . . .
torch.nn.init.normal_ F . . .
torch.nn.init.ones_ F . . .
torch.nn.init.orthogonal_ F . . .
torch.nn.init.sparse_ F . . .
torch.nn.init.trunc_normal_ F . . .
torch.nn.init.uniform_ F . . .
torch.nn.init.xavier_normal_ F . . .
torch.nn.init.xavier_uniform_ F . . .
torch.nn.init.zeros_ F . . .
torch.nn.utils.clip_grad.clip_grad_norm F . . .
torch.nn.utils.clip_grad.clip_grad_norm_ F . . .
torch.nn.utils.clip_grad.clip_grad_value_ F . . .
torch.nn.utils.clip_grad_norm F torch.nn.utils.clip_grad . .
torch.nn.utils.clip_grad_norm_ F torch.nn.utils.clip_grad . .
torch.nn.utils.clip_grad_value_ F torch.nn.utils.clip_grad . .
torch.nn.utils.clip_grads_with_norm_ F torch.nn.utils.clip_grad . _clip_grads_with_norm_
torch.nn.utils.get_total_norm F torch.nn.utils.clip_grad . _get_total_norm
torch.nn.utils.parameters_to_vector F torch.nn.utils.convert_parameters . .
torch.nn.utils.parametrize.cached F . . .
torch.nn.utils.parametrize.is_parametrized F . . .
torch.nn.utils.parametrize.register_parametrization F . . .
torch.nn.utils.parametrize.remove_parametrizations F . . .
torch.nn.utils.prune.BasePruningMethod C . . .
torch.nn.utils.prune.CustomFromMask C . . .
torch.nn.utils.prune.Identity C . . .
torch.nn.utils.prune.L1Unstructured C . . .
torch.nn.utils.prune.LnStructured C . . .
torch.nn.utils.prune.PruningContainer C . . .
torch.nn.utils.prune.RandomStructured C . . .
torch.nn.utils.prune.RandomUnstructured C . . .
torch.nn.utils.prune.custom_from_mask F . . .
torch.nn.utils.prune.global_unstructured F . . .
torch.nn.utils.prune.identity F . . .
torch.nn.utils.prune.is_pruned F . . .
torch.nn.utils.prune.l1_unstructured F . . .
torch.nn.utils.prune.ln_structured F . . .
torch.nn.utils.prune.random_structured F . . .
torch.nn.utils.prune.random_unstructured F . . .
torch.nn.utils.prune.remove F . . .
torch.nn.utils.rnn.pack_padded_sequence F . . .
torch.nn.utils.rnn.pack_sequence F . . .
torch.nn.utils.rnn.pad_packed_sequence F . . .
torch.nn.utils.rnn.pad_sequence F . . .
torch.nn.utils.rnn.unpack_sequence F . . .
torch.nn.utils.rnn.unpad_sequence F . . .
torch.nn.utils.vector_to_parameters F torch.nn.utils.convert_parameters . .
torch.no_grad C torch.autograd.grad_mode . .
torch.nonzero M . V:nonzero .
torch.norm F torch.functional . .
torch.normal M . V:normal .
torch.not_equal M . V:not_equal .
torch.numel M . V:numel .
torch.ones M . V:ones .
torch.ones_like M . V:ones_like .
torch.optim.ASGD C torch.optim.asgd . .
torch.optim.Adadelta C torch.optim.adadelta . .
torch.optim.Adafactor C . . .
torch.optim.Adagrad C torch.optim.adagrad . .
torch.optim.Adam C torch.optim.adam . .
torch.optim.AdamW C torch.optim.adamw . .
torch.optim.Adamax C torch.optim.adamax . .
torch.optim.LBFGS C torch.optim.lbfgs . .
torch.optim.Muon C . . .
torch.optim.NAdam C torch.optim.nadam . .
torch.optim.RAdam C torch.optim.radam . .
torch.optim.RMSprop C torch.optim.rmsprop . .
torch.optim.Rprop C torch.optim.rprop . .
torch.optim.SGD C torch.optim.sgd . .
torch.optim.SparseAdam C torch.optim.sparse_adam . .
torch.optim.lr_scheduler.ChainedScheduler C . . .
torch.optim.lr_scheduler.ConstantLR C . . .
torch.optim.lr_scheduler.CosineAnnealingLR C . . .
torch.optim.lr_scheduler.CosineAnnealingWarmRestarts C . . .
torch.optim.lr_scheduler.CyclicLR C . . .
torch.optim.lr_scheduler.ExponentialLR C . . .
torch.optim.lr_scheduler.LambdaLR C . . .
torch.optim.lr_scheduler.LinearLR C . . .
torch.optim.lr_scheduler.MultiStepLR C . . .
torch.optim.lr_scheduler.MultiplicativeLR C . . .
torch.optim.lr_scheduler.OneCycleLR C . . .
torch.optim.lr_scheduler.PolynomialLR C . . .
torch.optim.lr_scheduler.ReduceLROnPlateau C . . .
torch.optim.lr_scheduler.SequentialLR C . . .
torch.optim.lr_scheduler.StepLR C . . .
torch.outer M . V:outer .
torch.pairwise_distance M . V:pairwise_distance .
torch.permute M . V:permute .
torch.pinverse M . V:pinverse .
torch.pixel_shuffle M . V:pixel_shuffle .
torch.pixel_unshuffle M . V:pixel_unshuffle .
torch.poisson M . V:poisson .
torch.binomial M . V:binomial .
torch.polygamma M . V:polygamma .
torch.positive M . V:positive .
torch.pow M . V:pow .
torch.prelu M . V:prelu .
torch.prod M . V:prod .
torch.promote_types M . V:promote_types .
torch.qr M . V:qr .
torch.quantile M . V:quantile .
torch.rad2deg M . V:rad2deg .
torch.rand M . V:rand .
torch.rand_like M . V:rand_like .
torch.randint M . V:randint .
torch.randint_like M . V:randint_like .
torch.randn M . V:randn .
torch.randn_like M . V:randn_like .
torch.random.fork_rng F . . .
torch.random.get_rng_state F . . .
torch.random.initial_seed F . . .
torch.random.manual_seed F . . .
torch.random.seed F . . .
torch.random.set_rng_state F . . .
torch.randperm M . V:randperm .
torch.ravel M . V:ravel .
torch.real M . V:real .
torch.reciprocal M . V:reciprocal .
torch.reciprocal_ M . V:reciprocal_ .
torch.relu M . V:relu .
torch.relu_ M . V:relu_ .
torch.remainder M . V:remainder .
torch.renorm M . V:renorm .
torch.repeat_interleave M . V:repeat_interleave .
torch.reshape M . V:reshape .
torch.resolve_conj M . V:resolve_conj .
torch.resolve_neg M . V:resolve_neg .
torch.result_type M . V:result_type .
torch.rms_norm M . V:rms_norm .
torch.roll M . V:roll .
torch.rot90 M . V:rot90 .
torch.round M . V:round .
torch.round_ M . V:round_ .
torch.row_stack M . V:row_stack .
torch.rrelu M . V:rrelu .
torch.rrelu_ M . V:rrelu_ .
torch.rsqrt M . V:rsqrt .
torch.rsqrt_ M . V:rsqrt_ .
torch.save F torch.serialization . .
torch.scalar_tensor M . V:scalar_tensor .
torch.scatter M . V:scatter .
torch.scatter_add M . V:scatter_add .
torch.scatter_reduce M . V:scatter_reduce .
torch.searchsorted M . V:searchsorted .
torch.seed F torch.random . .
torch.select M . V:select .
torch.selu M . V:selu .
torch.selu_ M . V:selu_ .
torch.set_default_dtype F . . .
torch.set_grad_enabled C torch.autograd.grad_mode . .
torch.set_printoptions F torch._tensor_str . .
torch.set_rng_state F torch.random . .
torch.sgn M . V:sgn .
torch.sigmoid M . V:sigmoid .
torch.sigmoid_ M . V:sigmoid_ .
torch.sign M . V:sign .
torch.signbit M . V:signbit .
torch.sin M . V:sin .
torch.sin_ M . V:sin_ .
torch.sinc M . V:sinc .
torch.sinc_ M . V:sinc_ .
torch.sinh M . V:sinh .
torch.sinh_ M . V:sinh_ .
torch.slogdet M . V:slogdet .
torch.softmax M . V:softmax .
torch.sort M . V:sort .
torch.sparse_coo_tensor M . V:sparse_coo_tensor .
torch.fft.fft B torch._C._fft . fft_fft
torch.fft.fft2 B torch._C._fft . fft_fft2
torch.fft.fftfreq B torch._C._fft . fft_fftfreq
torch.fft.fftn B torch._C._fft . fft_fftn
torch.fft.fftshift B torch._C._fft . fft_fftshift
torch.fft.hfft B torch._C._fft . fft_hfft
torch.fft.hfft2 B torch._C._fft . fft_hfft2
torch.fft.hfftn B torch._C._fft . fft_hfftn
torch.fft.ifft B torch._C._fft . fft_ifft
torch.fft.ifft2 B torch._C._fft . fft_ifft2
torch.fft.ifftn B torch._C._fft . fft_ifftn
torch.fft.ifftshift B torch._C._fft . fft_ifftshift
torch.fft.ihfft B torch._C._fft . fft_ihfft
torch.fft.ihfft2 B torch._C._fft . fft_ihfft2
torch.fft.ihfftn B torch._C._fft . fft_ihfftn
torch.fft.irfft B torch._C._fft . fft_irfft
torch.fft.irfft2 B torch._C._fft . fft_irfft2
torch.fft.irfftn B torch._C._fft . fft_irfftn
torch.fft.rfft B torch._C._fft . fft_rfft
torch.fft.rfft2 B torch._C._fft . fft_rfft2
torch.fft.rfftfreq B torch._C._fft . fft_rfftfreq
torch.fft.rfftn B torch._C._fft . fft_rfftn
torch.special.digamma B torch._C._special . special_digamma
torch.special.entr B torch._C._special . special_entr
torch.special.erf B torch._C._special . special_erf
torch.special.erfc B torch._C._special . special_erfc
torch.special.erfcx B torch._C._special . special_erfcx
torch.special.erfinv B torch._C._special . special_erfinv
torch.special.exp2 B torch._C._special . special_exp2
torch.special.expit B torch._C._special . special_expit
torch.special.expm1 B torch._C._special . special_expm1
torch.special.gammaln B torch._C._special . special_gammaln
torch.special.i0 B torch._C._special . special_i0
torch.special.i0e B torch._C._special . special_i0e
torch.special.i1 B torch._C._special . special_i1
torch.special.i1e B torch._C._special . special_i1e
torch.special.log1p B torch._C._special . special_log1p
torch.special.log_ndtr B torch._C._special . special_log_ndtr
torch.special.log_softmax B torch._C._special . special_log_softmax
torch.special.logit B torch._C._special . special_logit
torch.special.logsumexp B torch._C._special . special_logsumexp
torch.special.multigammaln B torch._C._special . special_multigammaln
torch.special.ndtr B torch._C._special . special_ndtr
torch.special.ndtri B torch._C._special . special_ndtri
torch.special.polygamma B torch._C._special . special_polygamma
torch.special.psi B torch._C._special . special_psi
torch.special.round B torch._C._special . special_round
torch.special.sinc B torch._C._special . special_sinc
torch.special.softmax B torch._C._special . special_softmax
torch.special.xlog1py B torch._C._special . special_xlog1py
torch.special.xlogy B torch._C._special . special_xlogy
torch.special.zeta B torch._C._special . special_zeta
torch.split F torch.functional . .
torch.sqrt M . V:sqrt .
torch.sqrt_ M . V:sqrt_ .
torch.square M . V:square .
torch.square_ M . V:square_ .
torch.squeeze M . V:squeeze .
torch.stack M . V:stack .
torch.std M . V:std .
torch.std_mean M . V:std_mean .
torch.sub M . V:sub .
torch.subtract M . V:subtract .
torch.sum M . V:sum .
torch.svd M . V:svd .
torch.swapaxes M . V:swapaxes .
torch.swapdims M . V:swapdims .
torch.t M . V:t .
torch.take M . V:take .
torch.take_along_dim M . V:take_along_dim .
torch.tan M . V:tan .
torch.tan_ M . V:tan_ .
torch.tanh M . V:tanh .
torch.tanh_ M . V:tanh_ .
torch.tensor M . V:tensor .
torch.tensor_split M . V:tensor_split .
torch.tensordot F torch.functional . .
torch.threshold M . V:threshold .
torch.threshold_ M . V:threshold_ .
torch.tile M . V:tile .
torch.topk M . V:topk .
torch.trace M . V:trace .
torch.transpose M . V:transpose .
torch.trapezoid M . V:trapezoid .
torch.trapz M . V:trapz .
torch.tril M . V:tril .
torch.tril_indices M . V:tril_indices .
torch.triplet_margin_loss M . V:triplet_margin_loss .
torch.triu M . V:triu .
torch.triu_indices M . V:triu_indices .
torch.true_divide M . V:true_divide .
torch.trunc M . V:trunc .
torch.trunc_ M . V:trunc_ .
torch.unbind M . V:unbind .
torch.unflatten M . V:unflatten .
torch.unique F torch.functional boolean_dispatch.<locals>.fn .
torch.unique_consecutive F torch.functional boolean_dispatch.<locals>.fn .
torch.unravel_index F torch.functional . .
torch.unsqueeze M . V:unsqueeze .
torch.use_deterministic_algorithms F . . .
torch.utils.checkpoint.checkpoint F . . .
torch.utils.checkpoint.checkpoint_sequential F . . .
torch.utils.data.BatchSampler C torch.utils.data.sampler . .
torch.utils.data.ConcatDataset C torch.utils.data.dataset . .
torch.utils.data.DataLoader C torch.utils.data.dataloader . .
torch.utils.data.RandomSampler C torch.utils.data.sampler . .
torch.utils.data.SequentialSampler C torch.utils.data.sampler . .
torch.utils.data.Subset C torch.utils.data.dataset . .
torch.utils.data.SubsetRandomSampler C torch.utils.data.sampler . .
torch.utils.data.TensorDataset C torch.utils.data.dataset . .
torch.utils.data.WeightedRandomSampler C torch.utils.data.sampler . .
torch.utils.data.default_collate F torch.utils.data._utils.collate . .
torch.utils.data.random_split F torch.utils.data.dataset . .
torch.vander M . V:vander .
torch.var M . V:var .
torch.var_mean M . V:var_mean .
torch.vdot M . V:vdot .
torch.vmap F torch.func . .
torch.vsplit M . V:vsplit .
torch.vstack M . V:vstack .
torch.where M . V:where .
torch.xlogy M . V:xlogy .
torch.xlogy_ M . V:xlogy_ .
torch.zero_ M . V:zero_ .
torch.zeros M . V:zeros .
torch.zeros_like M . V:zeros_like .
"""

_PARSED: dict[str, tuple[str, str, str, str]] = {}
_BY_ID: dict[int, str] = {}
# Where one gradcli function stands for several of PyTorch's (torch.relu and F.relu): the
# namespace a program most often prints it from comes first.
_ORDER = (
    "torch.nn.functional",
    "torch",
    "torch.linalg",
    "torch.special",
    "torch.fft",
    "torch.nn.init",
)


def _parsed() -> dict[str, tuple[str, str, str, str]]:
    if not _PARSED:
        for line in TABLE.split("\n"):
            if not line:
                continue
            full, kind, module, qualname, name = line.split(" ")
            ns, _, key = full.rpartition(".")
            name = key if name == "." else name
            qualname = (
                name if qualname == "." else qualname.replace("V:", "_VariableFunctionsClass.")
            )
            _PARSED[full] = (kind, ns if module == "." else module, qualname, name)
    return _PARSED


def _path(v: Any) -> str | None:
    """The `namespace.name` under which the program reaches `v` (the first in `_ORDER`)."""
    if not _BY_ID:
        from .namespaces import Namespace, build_namespaces

        table = _parsed()
        found: dict[int, str] = {}
        todo = list(build_namespaces().values())
        seen: set[int] = set()
        while todo:
            ns = todo.pop()
            if id(ns) in seen or not isinstance(ns, Namespace):
                continue
            seen.add(id(ns))
            members = ns.members
            for key in list(members.keys()):
                try:
                    value = members[key]
                except Exception:  # noqa: BLE001 - a member that cannot load is not shown
                    continue
                if isinstance(value, Namespace):
                    todo.append(value)
                    continue
                full = f"{ns.name}.{key}"
                if full not in table:
                    continue
                old = found.get(id(value))
                if old is None or _rank(full) < _rank(old):
                    found[id(value)] = full
        _BY_ID.update(found)
        _BY_ID[0] = ""  # (built)
    return _BY_ID.get(id(v))


# F.sigmoid and F.tanh are deprecated in PyTorch: programs print torch's.
_TORCH_FIRST = frozenset(("torch.nn.functional.sigmoid", "torch.nn.functional.tanh"))


def table_name(v: Any) -> str | None:
    """The name PyTorch's tables (`surface.torch_signatures`) know `v` by (`F.softmax`,
    `torch.special.entr`), found by the value itself: a program may have named its module
    otherwise (`import torch.nn.functional as M`)."""
    path = _path(v)
    if not path:
        return None
    for long, short in (("torch.nn.functional.", "F."), ("torch.nn.", "nn.")):
        if path.startswith(long):
            return short + path[len(long) :]
    return path


def _rank(full: str) -> int:
    if full in _TORCH_FIRST:
        return len(_ORDER) + 1
    ns = full.rpartition(".")[0]
    return _ORDER.index(ns) if ns in _ORDER else len(_ORDER)


def entry(v: Any) -> tuple[str, str, str, str] | None:
    """(kind, module, qualname, name) of PyTorch's object for the value `v`, or None."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return None
    path = _path(v)
    return _parsed().get(path) if path else None


def shown(v: Any) -> str | None:
    """`repr(v)` as PyTorch's, or None where `v` is not one of the table's."""
    e = entry(v)
    if e is None:
        return None
    kind, module, qualname, name = e
    if kind == "M":
        return f"<built-in method {name} of type object at {id(v):#x}>"
    if kind == "F":
        return f"<function {qualname} at {id(v):#x}>"
    if kind == "B":
        return f"<built-in function {name}>"
    return f"<class '{module}.{qualname}'>"


def dunder(v: Any, attr: str) -> str | None:
    """`v.__module__` / `v.__qualname__` / `v.__name__` as PyTorch's, or None."""
    e = entry(v)
    if e is None:
        return None
    _, module, qualname, name = e
    return {"__module__": module, "__qualname__": qualname, "__name__": name}.get(attr)


# The methods of torch.Tensor PyTorch defines in Python (`<function Tensor.backward at 0x...>`,
# a bound one `<bound method Tensor.backward of tensor(...)>`); the others are the C class's
# (`<method 'add' of 'torch._C.TensorBase' objects>`, bound `<built-in method add of Tensor
# object at 0x...>`).
TENSOR_FUNCTIONS = frozenset(
    (
        "backward",
        "norm",
        "register_hook",
        "register_post_accumulate_grad_hook",
        "split",
        "unflatten",
        "unique",
        "unique_consecutive",
    )
)


def _tensor_method(v: Any) -> str | None:
    from .values import Builtin

    if isinstance(v, Builtin) and v.name.startswith("torch.Tensor."):
        return v.name[len("torch.Tensor.") :]
    return None


def function_shown(v: Any) -> str | None:
    """What print() shows for one of torch's functions, classes or Tensor methods (None for
    any other value: the caller's own text stands)."""
    from types import BuiltinFunctionType, FunctionType

    from ..surface import nn as surface_nn
    from .values import BoundMethod, Builtin

    if v is surface_nn.Module:  # (the class itself: gradcli's, named as PyTorch's)
        return "<class 'torch.nn.modules.module.Module'>"
    base = getattr(v, "PROGRAM_BASE", None) if isinstance(v, type) else None
    if base is not None:  # torch.optim.Optimizer, torch.optim.lr_scheduler.LRScheduler
        where = "optimizer" if base == "optimizer" else "lr_scheduler"
        return f"<class 'torch.optim.{where}.{v.__name__}'>"
    method = _tensor_method(v)
    if method is not None:
        if method in TENSOR_FUNCTIONS:
            return f"<function Tensor.{method} at {id(v):#x}>"
        return f"<method '{method}' of 'torch._C.TensorBase' objects>"
    if isinstance(v, BoundMethod):
        from ..core.tensor import Tensor

        if v.user is None and isinstance(v.obj, Tensor) and v.name in TENSOR_FUNCTIONS:
            from .text import to_repr

            return f"<bound method Tensor.{v.name} of {to_repr(v.obj)}>"
        return None
    if isinstance(v, (FunctionType, BuiltinFunctionType, Builtin)) or (
        type(v).__module__ == "gradcli.lang.namespaces" and callable(v)
    ):
        return shown(v)
    return None


def _python_class_instance(v: Any) -> bool:
    """Whether `v` is an instance of a class written in Python, whose `__module__` its
    instances read: the program's own classes', torch's modules, optimizers, schedulers and
    tensors (not a C class's: a graph node, a device, a dtype have none, or other rules)."""
    from ..core.tensor import Tensor
    from ..surface import nn as surface_nn
    from .classes import Instance, ModuleInstance, ProgramObject

    if isinstance(v, (Instance, ModuleInstance, ProgramObject, surface_nn.Module, Tensor)):
        return True
    return getattr(type(v), "PROGRAM_BASE", None) is not None  # Optimizer, LRScheduler


def dunder_name(v: Any, attr: str) -> str:
    """`v.__module__` / `v.__qualname__` (only ever a string): PyTorch's for its functions and
    classes, `__main__` and the qualified name for the program's own."""
    from ..base.errors import GradcliError, NotSupported
    from ..core.tensor import Tensor, typename
    from .classes import FunctionClass, ModuleClass, OptimClass, PlainClass
    from .pycollections import NamedTupleClass
    from .values import BoundMethod, ModuleType, PyType, UserFunction

    if isinstance(v, UserFunction):
        return "__main__" if attr == "__module__" else v.qualname
    if isinstance(v, BoundMethod) and v.user is not None:
        return "__main__" if attr == "__module__" else v.user.qualname
    if (
        isinstance(v, BoundMethod)
        and attr == "__qualname__"
        and isinstance(v.obj, (Tensor, list, dict, set, str, tuple))
        and v.name.isidentifier()
    ):  # a C method of a tensor or a Python value: its class's qualified name, then its own
        return f"{'Tensor' if isinstance(v.obj, Tensor) else type(v.obj).__name__}.{v.name}"
    if isinstance(v, (ModuleClass, OptimClass, PlainClass, FunctionClass, NamedTupleClass)):
        return "__main__" if attr == "__module__" else v.name
    if type(v) is MethodType and attr == "__qualname__":
        from ..surface import nn as surface_nn

        qualname = v.__func__.__qualname__  # m.zero_grad: Module.zero_grad, as PyTorch's
        owner = v.__self__  # (a module's, or torch.optim's: opt.step, SGD.step)
        if (
            isinstance(owner, surface_nn.Module)
            or getattr(type(owner), "PROGRAM_BASE", None) in ("optimizer", "scheduler", "plateau")
        ) and not (qualname.startswith("_") or "<" in qualname or "._" in qualname):
            return qualname
    method = _tensor_method(v)
    if method is not None:
        if method in TENSOR_FUNCTIONS:
            return "torch._tensor" if attr == "__module__" else f"Tensor.{method}"
        if attr == "__module__":
            raise GradcliError("'method_descriptor' object has no attribute '__module__'").mirror(
                "AttributeError"
            )
        return f"TensorBase.{method}"
    if isinstance(v, (ModuleType, PyType)):
        text = repr(v)
        if text.startswith("<class '") and text.endswith("'>"):
            module, _, qualname = text[8:-2].rpartition(".")
            return (module or "builtins") if attr == "__module__" else qualname
    found = dunder(v, attr)
    if found is not None:
        return found
    shown_class = function_shown(v) if isinstance(v, type) else None
    if shown_class is not None and shown_class.startswith("<class '"):
        # nn.Module, torch.optim.Optimizer: gradcli's classes, named as PyTorch's
        module, _, qualname = shown_class[8:-2].rpartition(".")
        return module if attr == "__module__" else qualname
    if attr == "__module__":  # an instance's: its class's (d2l: `sched.__module__ == ...`)
        if v is None or isinstance(v, (bool, int, float, complex, str, bytes, list, tuple, dict)):
            raise GradcliError(f"'{typename(v)}' object has no attribute '__module__'").mirror(
                "AttributeError"
            )
        if _python_class_instance(v):
            from .builtins import TYPE_BUILTIN

            return dunder_name(TYPE_BUILTIN.fn(v), attr)
    raise NotSupported(
        f"`.{attr}` of a {typename(v)} is not supported by gradcli",
        hint="print the value itself, or its __name__",
    )
