(** Every headline theorem, with the axioms it depends on.  `make test`
    (suite test-assumptions) fails unless each one prints
    "Closed under the global context". *)
From Redist Require Import Semanticsproof Checkerproof Trafficproof Refineproof Plannerproof Plannerfinal
  Layoutproof Exchangeproof Lowerbound Strategyproof Sumsproof Sumexchange Sumslift Sumlowerbound Sumplanbound Sumplan
  Sumstrategyproof
  Lowerproof Lowersumsproof Costproof Costclosed Compiler.
From Redist Require Import Lowerncclproof.
From Redist Require Import Lowersumxproof.

(** The collectives move data as the model says. *)
Print Assumptions dyn_slice_sound.
Print Assumptions all_gather_sound.
Print Assumptions all_to_all_sound.
Print Assumptions all_permute_sound.
Print Assumptions step_sound.
Print Assumptions step_type_wf.

(** The checker: accepted plans are correct; reported peak and traffic are the execution's. *)
Print Assumptions check_correct.
Print Assumptions check_accepts.
Print Assumptions check_types.
Print Assumptions check_peak.
Print Assumptions received_closed_form.
Print Assumptions check_traffic.
Print Assumptions lower_bound_recv_boxes.

(** Mesh refinement: sub-axes keep ranks and boxes. *)
Print Assumptions split_rank.
Print Assumptions split_box_index.
Print Assumptions split_holds.
Print Assumptions refine_holds.

(** The planner. *)
Print Assumptions plan_total.
Print Assumptions plan_correct.
Print Assumptions plan_peak_le_max.
Print Assumptions plan_normal_form.
Print Assumptions plan_traffic_bound.
Print Assumptions planner_always_normal.
Print Assumptions plan_slices_gathers_bounded.
Print Assumptions permute_traffic_max.

(** Part 2: layouts over placed meshes; Part 1 is their even one-mesh case. *)
Print Assumptions pl_holds_even.
Print Assumptions covered.
Print Assumptions recv_lower_bound_exact.
Print Assumptions lower_bound_recv_even.

(** The direct exchange. *)
Print Assumptions exchange_sound.
Print Assumptions exchange_recv_exact.
Print Assumptions spread_holder_ok.
Print Assumptions spread_holder_blockwise.
Print Assumptions recv_messages_exact.
Print Assumptions recv_cells_NoDup.

(** The traffic lower bound. *)
Print Assumptions lower_bound_sound.
Print Assumptions exchange_optimal.
Print Assumptions collective_valid_move.
Print Assumptions exchange_valid_move.
Print Assumptions check_recv_ge_lower_bound.

(** Plans with a strategy (collectives or exchange): the checker and the planner. *)
Print Assumptions xcheck_correct.
Print Assumptions xcheck_traffic.
Print Assumptions xcheck_recv_ge_bound.
Print Assumptions plan_with_checked.
Print Assumptions plan_with_correct.
Print Assumptions plan_with_peak.

(** Hybrids: through an intermediate layout the bound of the whole is at most the sum of the legs'. *)
Print Assumptions xcheck_layouts_wf.
Print Assumptions recv_lower_bound_through.

(** Pending sums over any commutative monoid: Part 1 is the case with none. *)
Print Assumptions holds_sholds_empty.
Print Assumptions reduce_scatter_sound.
Print Assumptions all_reduce_sound.
Print Assumptions add_pending_sound.
Print Assumptions sum_received_exact.
Print Assumptions reduce_scatter_local_size.
Print Assumptions reducing_exchange_sound.
Print Assumptions reducing_exchange_recv_exact.
Print Assumptions sum_step_type_wf.
Print Assumptions sum_step_sound.
Print Assumptions sum_plan_sound.
Print Assumptions collective_pending_sound.
Print Assumptions reducing_exchange_to_sound.
Print Assumptions reducing_exchange_to_recv.
Print Assumptions sum_lower_bound.
Print Assumptions reducing_exchange_recv_ge.
Print Assumptions sum_plan_recv_ge_bound.
Print Assumptions pplan_sound.
Print Assumptions pplan_recv_ge_bound.

(** Pending sums, planned: the checker for plans with sum steps and the planner. *)
Print Assumptions scheck_correct.
Print Assumptions scheck_traffic.
Print Assumptions plan_sums_checked.
Print Assumptions plan_sums_correct.
Print Assumptions plan_sums_peak.
Print Assumptions sum_recv_bound_spec.
Print Assumptions scheck_recv_ge_bound.
Print Assumptions plan_sums_collectives_total.
Print Assumptions plan_sums_exchange_total.
Print Assumptions pstep_received_closed_form.

(** The lowering to runtime calls: data, bytes alive, workspace. *)
Print Assumptions lower_correct.
Print Assumptions lower_plan_correct.
Print Assumptions lower_buffers.
Print Assumptions lower_groups.
Print Assumptions lower_recv_from.
Print Assumptions lower_rank_wire.
Print Assumptions lower_rank_correct.
Print Assumptions lower_live_bytes.
Print Assumptions lower_scratch_le.
Print Assumptions lower_workspace_exact.
Print Assumptions live_bytes_le_allocated.
Print Assumptions lower_splan_correct.
Print Assumptions lower_exchange_wire.
Print Assumptions lower_exchange_correct.
Print Assumptions lower_splan_live_bytes.
Print Assumptions lower_splan_workspace_exact.
Print Assumptions lower_sums_correct.
Print Assumptions lower_sums_holds.
Print Assumptions lower_sums_live_bytes.
Print Assumptions lower_sums_workspace_exact.
Print Assumptions lower_sums_groups.
Print Assumptions sumx_dst_exact.
Print Assumptions lower_sumx_correct.
Print Assumptions sumx_staging_exact.
Print Assumptions sumx_sends_spec.
Print Assumptions sumx_workspace_exact.
Print Assumptions sumx_live_le.
Print Assumptions lower_sumplan_correct.
Print Assumptions keep_one_sound.
Print Assumptions scheck_fill_correct.

(** End to end: the planner's plan, lowered, in user terms. *)
Print Assumptions redist_collectives_correct.
Print Assumptions redist_correct.
Print Assumptions redist_sums_correct.
Print Assumptions redist_chosen_correct.

(** The choice of the fastest verified plan under a memory budget. *)
Print Assumptions choose_checked.
Print Assumptions choose_correct.
Print Assumptions choose_within_budget.
Print Assumptions splan_live_le_alloc.
Print Assumptions choose_fastest.
Print Assumptions choose_below_minimum.
Print Assumptions choose_answers.

(** The exchange's predicted time in closed form: its messages' time on one host, at least that across hosts. *)
Print Assumptions exchange_rank_ns_exact.
Print Assumptions exchange_rank_ns_bound.
Print Assumptions exchange_predicted_exact.
Print Assumptions exchange_predicted_bound.

(** Single copy on a host prices the direct exchange only; without it every price is as before. *)
Print Assumptions single_copy_absent.
Print Assumptions single_copy_absent_steps.
Print Assumptions single_copy_no_slower.

(** The NCCL exchange's staging workspace: the header's figure is the largest rank's staging, every rank's fits. *)
Print Assumptions nccl_workspace_bytes_exact.
Print Assumptions nccl_staging_outside.
Print Assumptions nccl_sumx_workspace_bytes_exact.

(** Pending sums: the fastest verified plan under a memory budget. *)
From Redist Require Import Costsumsproof.
Print Assumptions choose_sums_checked.
Print Assumptions choose_sums_correct.
Print Assumptions choose_sums_within_budget.
Print Assumptions sumx_live_le_alloc.
Print Assumptions choose_sums_fastest.
Print Assumptions choose_sums_below_minimum.
Print Assumptions sum_steps_single_copy_no_slower.

(** Reductions beyond sum (Part 3): sum, prod, max, min on the integer types
    as commutative monoids, the headline theorems for each with its fill;
    max and min keep a value on every member, in the one execution of
    pending steps ([KeepAll]); avg as the sum then one division by the group
    size, to a plain target and to a target with pending avg axes (divided
    once by the reduced axes' sizes, the added axes' members keeping the
    value). *)
From Redist Require Import Reductionsproof.
Print Assumptions redist_sums_correct_for_op.
Print Assumptions choose_sums_correct_for_op.
Print Assumptions group_sum_copies.
Print Assumptions copies_sholds.
Print Assumptions add_pending_keep_sound.
Print Assumptions keep_plan_sound.
Print Assumptions keep_all_sound.
Print Assumptions fill_of_sound.
Print Assumptions keep_all_plain_holds.
Print Assumptions plan_sums_plain_additions.
Print Assumptions max_min_plain_keeps_value.
Print Assumptions copies_aholds.
Print Assumptions redist_avg_correct.
Print Assumptions redist_avg_pending_correct.
Print Assumptions plan_sums_collectives_kind.
Print Assumptions Qc_avg.

(** In place (Part 3): one buffer of max(src, tgt) per rank and a staging of
    B; a schedule the validator accepts ends with every target box in its
    buffer, stays within buffer + B, moves exactly the exchange's traffic,
    and its rounds match between ranks and run one move at a time.  The
    command's validator works on runs of places (any lengths) and implies
    the element-by-element one; so does the validator on blocks. *)
From Redist Require Import Inplaceproof.
Print Assumptions inplace_sound.
Print Assumptions inplace_live_bytes.
Print Assumptions inplace_traffic_exact.
Print Assumptions inplace_traffic_optimal.
Print Assumptions inplace_rounds_match.
Print Assumptions round_sequential.
Print Assumptions validate_blocks_validate.
Print Assumptions validate_runs_validate.
Print Assumptions inplace_plan_validated.

(** The cost of in place and the choice within a budget: the staging is
    the most the budget allows and fits it; the chosen plan, out of place
    or in place, is verified, fits the budget and is no slower than any
    other verified candidate that fits. *)
From Redist Require Import Costinplaceproof.
Print Assumptions inplace_ns_app.
Print Assumptions inplace_staging_fits.
Print Assumptions inplace_staging_most.
Print Assumptions inplace_staging_refused.
Print Assumptions choose_within_fits.
Print Assumptions choose_within_verified.
Print Assumptions choose_within_fastest.

(** Composed cuts (Part 3): per device and dimension, the local index is a
    bijection from the held indices onto [0, extent); the intervals are
    exactly the held indices, sorted and disjoint; one owner per cut
    sequence; Part 2 as the one-cut case; the exchange over holdings. *)
From Redist Require Import Cutsproof Holding.
Print Assumptions dim_local_of_owned.
Print Assumptions dim_global_owned.
Print Assumptions dim_global_mono.
Print Assumptions dim_intervals_exact.
Print Assumptions dim_intervals_owned.
Print Assumptions dim_intervals_sorted.
Print Assumptions dim_owns_replicated.
Print Assumptions dim_owner_unique.
Print Assumptions dim_owner_exists.
Print Assumptions c_local_of_has.
Print Assumptions c_global_has.
Print Assumptions c_has_intervals.
Print Assumptions one_cut_agrees.
Print Assumptions hexchange_sound.
Print Assumptions hexchange_recv_exact.
Print Assumptions hmissing_spec.
Print Assumptions exchange_sound_of_holdings.
Print Assumptions exchange_recv_exact_of_holdings.
Print Assumptions cuts_holding_laws.
Print Assumptions cuts_exchange_sound.
Print Assumptions cuts_exchange_recv_exact.
Print Assumptions one_cut_holding.
Print Assumptions one_cut_exchange_wire.
Print Assumptions cuts_covered.
Print Assumptions cuts_holder_ok.
Print Assumptions cuts_holder_exchange.

From Redist Require Import Lowercutsproof.
Print Assumptions interval_run.
Print Assumptions cell_moves.
Print Assumptions cell_covers.
Print Assumptions region_messages_match.
Print Assumptions region_wire_source.
Print Assumptions region_exchange_sound.

(** The region messages over the messages themselves: exactly the lower
    bound, per rank, busiest and in total; the lower bound over holdings;
    the live bytes; one cut is Part 2. *)
From Redist Require Import Lowercutsexact.
Print Assumptions device_cells_elems.
Print Assumptions region_recv_exact.
Print Assumptions region_recv_busiest_exact.
Print Assumptions region_recv_total_exact.
Print Assumptions hlower_bound_sound.
Print Assumptions lower_bound_sound_of_holdings.
Print Assumptions region_exchange_optimal.
Print Assumptions region_boxes_inside.
Print Assumptions localize_elems.
Print Assumptions region_writes_exact.
Print Assumptions region_sender_replica.
Print Assumptions region_messages_any_holder.
Print Assumptions clayout_of_layout_wf.
Print Assumptions one_cut_missing.
Print Assumptions one_cut_region_recv.

(** The reducing exchange over holdings (composed cuts with pending
    reductions over any commutative monoid, targets pending with either
    fill) and its lowering to region messages. *)
From Redist Require Import Holdsum Holdsumonecut Lowercutsredproof.
Print Assumptions group_value.
Print Assumptions fill_sholds.
Print Assumptions hreduce_sound.
Print Assumptions plain_target_laws.
Print Assumptions hreduce_recv_exact.
Print Assumptions cuts_group_laws.
Print Assumptions cuts_designated_once.
Print Assumptions cuts_fill_laws.
Print Assumptions cuts_reduce_exchange_sound.
Print Assumptions cuts_group_length.
Print Assumptions cuts_reduce_exchange_recv.
Print Assumptions cuts_group_members.
Print Assumptions one_cut_pending_value.
Print Assumptions one_cut_sholds.
Print Assumptions reduce_messages_match.
Print Assumptions region_reduce_contributors.
Print Assumptions region_reduce_exchange_sound.
Print Assumptions region_reduce_recv_exact.

(** avg over composed cuts: the reducing region messages with the sum, then
    one division of every received position by the source's group size,
    to a plain target and to a target pending avg (fill [KeepAll]). *)
From Redist Require Import Lowercutsavg.
Print Assumptions region_reduce_receiver_value.
Print Assumptions region_reduce_avg_sound.
Print Assumptions region_reduce_avg_pending_sound.
