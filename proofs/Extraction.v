(** * Extraction of the checker (and, later, the planner) to OCaml.

    [nat] becomes OCaml's [int].  This is sound only below the bound that the
    command line checks at its boundary (see [codegen/]): every global extent,
    every product of extents and the mesh size stay below 2^50, so no
    intermediate value of these functions reaches [max_int] (2^62 - 1). *)

From Coq Require Import Extraction ExtrOcamlBasic ExtrOcamlNatInt Arith.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Sums Sumexchange Sumplan Sumstrategy
  Lower Lowersums Cost.
From Redist Require Import Lowernccl.
From Redist Require Import Lowersumx.
From Redist Require Import Choose Costsums.
From Redist Require Import Inplace Costinplace.
From Redist Require Import Cuts Lowercuts Lowercutsexact.
From Redist Require Import Holdsum Lowercutsred Lowercutsavg.

(* [Nat.div] and friends exist under two names, [Init.Nat] and its alias [PeanoNat.Nat]. *)
Extract Inlined Constant Coq.Init.Nat.div => "(fun a b -> if b = 0 then 0 else a / b)".
Extract Inlined Constant Coq.Init.Nat.modulo => "(fun a b -> if b = 0 then a else a mod b)".
Extract Inlined Constant Coq.Init.Nat.ltb => "(fun (a : int) b -> a < b)".
Extract Inlined Constant Coq.Init.Nat.leb => "(fun (a : int) b -> a <= b)".
Extract Inlined Constant Coq.Init.Nat.max => "(fun (a : int) b -> if a >= b then a else b)".
Extract Inlined Constant Coq.Init.Nat.min => "(fun (a : int) b -> if a <= b then a else b)".
Extract Inlined Constant Coq.Init.Nat.sub => "(fun (a : int) b -> if a >= b then a - b else 0)".
Extract Inlined Constant Coq.Init.Nat.add => "(+)".
Extract Inlined Constant Coq.Init.Nat.mul => "( * )".
Extract Inlined Constant Coq.Init.Nat.eqb => "(fun (a : int) b -> a = b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.div => "(fun a b -> if b = 0 then 0 else a / b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.modulo => "(fun a b -> if b = 0 then a else a mod b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.ltb => "(fun (a : int) b -> a < b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.leb => "(fun (a : int) b -> a <= b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.max => "(fun (a : int) b -> if a >= b then a else b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.min => "(fun (a : int) b -> if a <= b then a else b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.sub => "(fun (a : int) b -> if a >= b then a - b else 0)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.add => "(+)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.mul => "( * )".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.eqb => "(fun (a : int) b -> a = b)".
(* The order of [Mergesort.NatSort] (Layout.ranks_distinct): [Nat.leb] written as its own fixpoint. *)
Extract Constant Coq.Sorting.Mergesort.NatOrder.leb => "(fun (a : int) b -> a <= b)".

Extraction "redist_core.ml"
  mesh_wf ty_wf axis_size mesh_size local_shape local_size extent shards offset
  device_of_rank rank radix
  step_type check recv_count max_over_ranks lower_bound_recv
  refine_ok refine_mesh refine_ty
  planner planner_in_normal_form normal_form is_slice is_flat is_gather plan_traffic
  candidate_refinements
  placed_at pmesh_wf index_of ceil_div block_size dim_block dev_box box_shape box_size
  box_global box_local box_has layout_wf layouts_wf pl_box pl_shapes missing overlap_size
  recv_lower_bound exchange_wire exchange_received mesh_boxes holders_in holders_of needers_in needers_of
  spread_in spread_holder block_key
  cuts dims_cuts cell_boxes recv_cells recv_messages
  even_problem largest_box largest_boxes exchange_recv xcheck exchange_busiest plan_with
  pty_wf sum_step_type sum_plan_type sum_recv_count pl_pending_wf group_size
  pstep_type pplan_type pstep_recv_count designated
  sum_steps_check steps_recv box_size_at sum_recv_bound sum_exchange_recv sum_exchange_ok scheck
  reduce_choice reduce_steps add_steps keep_candidate sum_candidate qualifies sum_collectives sum_exchange_busiest plan_sums
  sexec pl_pending_value
  lower live_bytes call_live ping_bytes pong_bytes scratch_bytes pong_offset scratch_offset
  workspace_bytes lower_splan rank_wire group_index group_member interp_rank
  lower_exchange message_wire exchange_live splan_live_bytes program_workspace_bytes
  lower_sums reductions_out sum_live_bytes red0_bytes red1_bytes red_scratch_bytes collectives_offset sum_workspace_bytes
  lower_sumx sumx_pieces sumx_sends group_ranks sumx_array_bytes sumx_staging_bytes sumx_workspace_bytes sumx_live sumx_live_bytes
  source_index sumx_dst lower_sumplan avg_divisor sumplan_live_bytes sumplan_workspace_bytes
  choose strategy_candidates hybrid_candidates exchange_live_bytes predicted_ns
  xexec xreceived run_program initial_buffers
  rank_table_of spans_hosts rank_ns exchange_batches exchange_rank_ns
  nccl_staging nccl_workspace_bytes nccl_sumx_staging_bytes sumx_messages nccl_sumx_workspace_bytes
  choose_sums sum_candidates sum_predicted_ns
  program_alloc_bytes splan_alloc_bytes sum_lowered_alloc_bytes sumplan_alloc_bytes
  held_size buf_size lin delin round_source run_round run_moves run_schedule trace received rank_sends rank_recvs
  area_size validate validate_blocks validate_runs crosses exchange_runs inplace_work_limit
  inplace_schedule inplace_plan
  round_ns inplace_steps_ns inplace_ns largest_buffer inplace_least_budget inplace_staging cost_in_place
  within_candidates choose_within
  cty_wf clayout_wf cl_device c_has c_local c_global c_shape c_intervals clayout_of_layout
  region_cells region_sends region_recvs region_copies region_wire region_recv_count lbox_size
  cl_local_elems region_live_elems
  cpending_wf cuts_group cuts_designated fill_receives reduce_sends reduce_recvs reduce_contributions region_reduce_run region_reduce_received group_size
  cuts_avg_divisor.
