
type __ = Obj.t

val negb : bool -> bool

val option_map : ('a1 -> 'a2) -> 'a1 option -> 'a2 option

val fst : ('a1 * 'a2) -> 'a1

val snd : ('a1 * 'a2) -> 'a2

val length : 'a1 list -> int

val app : 'a1 list -> 'a1 list -> 'a1 list

module Nat :
 sig
  val succ : int -> int

  val divmod : int -> int -> int -> int -> int * int

  val gcd : int -> int -> int
 end

type positive =
| XI of positive
| XO of positive
| XH

module Pos :
 sig
  val succ : positive -> positive

  val of_succ_nat : int -> positive
 end

val hd : 'a1 -> 'a1 list -> 'a1

val nth : int -> 'a1 list -> 'a1 -> 'a1

val nth_error : 'a1 list -> int -> 'a1 option

val last : 'a1 list -> 'a1 -> 'a1

val rev : 'a1 list -> 'a1 list

val map : ('a1 -> 'a2) -> 'a1 list -> 'a2 list

val flat_map : ('a1 -> 'a2 list) -> 'a1 list -> 'a2 list

val fold_left : ('a1 -> 'a2 -> 'a1) -> 'a2 list -> 'a1 -> 'a1

val fold_right : ('a2 -> 'a1 -> 'a1) -> 'a1 -> 'a2 list -> 'a1

val existsb : ('a1 -> bool) -> 'a1 list -> bool

val forallb : ('a1 -> bool) -> 'a1 list -> bool

val filter : ('a1 -> bool) -> 'a1 list -> 'a1 list

val find : ('a1 -> bool) -> 'a1 list -> 'a1 option

val combine : 'a1 list -> 'a2 list -> ('a1 * 'a2) list

val firstn : int -> 'a1 list -> 'a1 list

val seq : int -> int -> int list

val repeat : 'a1 -> int -> 'a1 list

val list_sum : int list -> int

val list_max : int list -> int

val prod0 : int list -> int

val memb : int -> int list -> bool

val nodupb : int list -> bool

val list_eqb : int list -> int list -> bool

val upd : 'a1 list -> int -> 'a1 -> 'a1 list

val split_last : int list -> (int list * int) option

type axis = int

type mesh = (axis * int) list

val mesh_axes : mesh -> axis list

val axis_size : mesh -> axis -> int

val mesh_size : mesh -> int

val mesh_wf : mesh -> bool

type device = axis -> int

val set_coord : device -> axis -> int -> device

val radix : mesh -> device -> axis list -> int

val set_radix : mesh -> axis list -> int -> device -> device

val rank : mesh -> device -> int

val device_of_rank : mesh -> int -> device

type dimty = axis list * int

type ty = dimty list

val shards : mesh -> dimty -> int

val extent : mesh -> dimty -> int

val local_shape : mesh -> ty -> int list

val local_size : mesh -> ty -> int

val global_shape : ty -> int list

val ty_axes : ty -> axis list

val dim_wf : mesh -> dimty -> bool

val ty_wf : mesh -> ty -> bool

val offset : mesh -> dimty -> device -> int

val box_indices : int list -> int list list

type 'a state = int -> int list -> 'a

type split = { sp_axis : axis; sp_hi : axis; sp_lo : axis; sp_q : int;
               sp_r : int }

val split_mesh : split -> mesh -> mesh

val split_axes : split -> axis list -> axis list

val split_ty : split -> ty -> ty

val split_ok : mesh -> split -> bool

type refinement = split list

val refine_ok : mesh -> refinement -> bool

val refine_mesh : refinement -> mesh -> mesh

val refine_ty : refinement -> ty -> ty

type collective =
| DynSlice of int * axis
| AllGather of int
| AllToAll of int * int
| AllPermute of ty

type plan = collective list

type ('e, 'a) res =
| OK of 'a
| Error of 'e

type step_error =
| DimOutOfRange of int
| AxisNotInMesh of axis
| AxisInUse of axis
| SliceNotDividing of int * axis
| GatherUnsharded of int
| SameDims of int
| AllToAllNotDividing of int * axis
| PermuteIllFormed
| PermuteGlobalShape
| PermuteLocalShape

val set_dim : ty -> int -> dimty -> ty

val step_type : mesh -> ty -> collective -> (step_error, ty) res

val dim_of : ty -> int -> dimty

val last_axis : axis list -> axis

val holder_from : mesh -> ty -> ty -> device -> device -> device

val holder : mesh -> ty -> ty -> device -> device

val wire : mesh -> ty -> collective -> device -> int list -> device * int list

val exec_step : mesh -> ty -> collective -> 'a1 state -> 'a1 state

val exec : mesh -> ty -> plan -> 'a1 state -> 'a1 state

val trace : mesh -> ty -> plan -> ty list

val recv_count : mesh -> ty -> collective -> int -> int

type check_error =
| BadMesh
| BadSource
| BadTarget
| GlobalShapeMismatch
| StepFailed of int * step_error
| WrongFinalType of ty

type step_report = { sr_collective : collective; sr_type : ty;
                     sr_local_size : int; sr_recv : (int -> int) }

type report = { rp_steps : step_report list; rp_peak : int }

val dimty_eqb : dimty -> dimty -> bool

val ty_eqb : ty -> ty -> bool

val rank_weights : mesh -> (axis * (int * int)) list

val weight_of : (axis * (int * int)) list -> axis -> int * int

val radix_of_rank : (int * int) list -> int -> int

val moved_dims :
  (axis * (int * int)) list -> ty -> ty -> ((int * int) list * (int * int)
  list) list

val permute_recv : mesh -> ty -> ty -> int -> int

val step_recv : mesh -> ty -> collective -> int -> int

val check_steps :
  mesh -> ty -> plan -> int -> (check_error, step_report list * ty) res

val check : mesh -> ty -> ty -> plan -> (check_error, report) res

val max_over_ranks : mesh -> (int -> int) -> int

val overlap : int -> int -> int -> int -> int

val lower_bound_recv : mesh -> ty -> ty -> int -> int

val is_slice : collective -> bool

val is_flat : collective -> bool

val is_gather : collective -> bool

val take_while : ('a1 -> bool) -> 'a1 list -> 'a1 list * 'a1 list

val nf_split : plan -> ((plan * plan) * plan) * plan

val normal_form : plan -> bool

val least_factor_from : int -> int -> int -> int

val least_factor : int -> int

val prime_factors_fuel : int -> int -> int list

val prime_factors : int -> int list

val chain_splits : axis -> int list -> int -> refinement

val refine_all : (int list -> int list) -> mesh -> int -> refinement

val fresh_axis : mesh -> axis

val lo_least : int list -> int list

val hi_least : int list -> int list

val split_eqb : split -> split -> bool

val refinement_eqb : refinement -> refinement -> bool

val dedup_refinements : refinement list -> refinement list

val candidate_refinements : mesh -> refinement list

val ext : mesh -> ty -> int -> int

val surplus : int -> int -> int

val slice_type : ty -> int -> axis -> ty

val greedy_slices :
  mesh -> ty -> int -> ty -> (int * axis) list -> (int * axis) list

val slice_prefs : mesh -> ty -> ty -> (int * axis) list

val slices_of : (int * axis) list -> plan

val apply_slices : ty -> (int * axis) list -> ty

val gathers_of : (int * axis) list -> plan

val move_last : ty -> int -> axis -> ty

val move_ok : mesh -> ty -> ty -> int -> int -> axis -> bool

val insert_big :
  mesh -> (((int * int) * axis) * bool) -> (((int * int) * axis) * bool) list
  -> (((int * int) * axis) * bool) list

val big_first :
  mesh -> (((int * int) * axis) * bool) list -> (((int * int) * axis) * bool)
  list

val find_move :
  bool -> mesh -> ty -> ty -> (((int * int) * axis) * bool) option

val flat_steps : bool -> int -> mesh -> ty -> ty -> plan

val build : bool -> mesh -> ty -> ty -> int -> plan

val trace_peak_ok : mesh -> ty -> plan -> int -> bool

val is_permute : collective -> bool

val fixed_traffic : report -> int

val first_received : step_report -> int -> int -> int

val max_upto : int -> (int -> int) -> int -> int -> int -> int

val permute_traffic : mesh -> report -> int

val plan_traffic : mesh -> report -> int

val assess :
  mesh -> ty -> ty -> refinement -> plan -> (((int * int) * mesh) * report)
  option

val cost_lt : (int * int) -> (int * int) -> bool

val best :
  mesh -> ty -> ty -> (refinement * plan) list ->
  ((refinement * plan) * (int * int)) option

val collective_eqb : collective -> collective -> bool

val plan_eqb : plan -> plan -> bool

val dedup_plans : plan list -> plan list

val plans_on : mesh -> ty -> ty -> plan list

val candidates : mesh -> ty -> ty -> (refinement * plan) list

val gather_all_from : int -> ty -> plan

val slice_all_from : int -> ty -> plan

val easy_plan : ty -> ty -> plan

val planner_choice :
  mesh -> ty -> ty -> ((refinement * plan) * (int * int)) option

val planner : mesh -> ty -> ty -> refinement * plan

val planner_in_normal_form : mesh -> ty -> ty -> bool

type pmesh = { pm_mesh : mesh; pm_ranks : int list }

val placed_at : mesh -> int -> pmesh

val increasingb : int list -> bool

val ranks_distinct : int list -> bool

val pmesh_wf : pmesh -> bool

val index_of : int -> int list -> int option

val ceil_div : int -> int -> int

val block_size : mesh -> dimty -> int

type box = (int * int) list

val dim_block : mesh -> dimty -> device -> int * int

val dev_box : mesh -> ty -> device -> box

val box_shape : box -> int list

val box_size : box -> int

val box_global : box -> int list -> int list

val box_local : box -> int list -> int list

val box_has : box -> int list -> bool

type layout = { ly_mesh : pmesh; ly_ty : ty }

val ly_m : layout -> mesh

val lty_wf : mesh -> ty -> bool

val layout_wf : layout -> bool

val layouts_wf : layout -> layout -> bool

val pl_box : layout -> int -> box option

val has_opt : box option -> int list -> bool

type shapes = int -> int list option

val pl_shapes : layout -> shapes

val positions : shapes -> int -> int list list

type wire_map = int -> int list -> int * int list

val wire_received : wire_map -> shapes -> int -> int

val missing : layout -> layout -> int -> int list list

val overlap_size : box -> box -> int

val recv_lower_bound : layout -> layout -> int -> int

type holder_choice = int -> int list -> int

val exchange_wire : layout -> layout -> holder_choice -> wire_map

val exchange_received : layout -> layout -> holder_choice -> int -> int

val mesh_boxes : layout -> (int * box) list

val holders_in : (int * box) list -> int list -> int list

val holders_of : layout -> int list -> int list

val needers_in : (int * box) list -> (int * box) list -> int list -> int list

val needers_of : layout -> layout -> int list -> int list

val spread_in :
  (int * box) list -> (int * box) list -> layout -> holder_choice

val spread_holder : layout -> layout -> holder_choice

val block_key : mesh -> ty -> int list -> int list

val cuts : int -> int -> int -> int -> int -> (int * int) list

val dims_cuts : box -> int list -> int list -> (int * int) list list

val cell_boxes : (int * int) list list -> box list

val recv_cells : layout -> layout -> int -> box list

val recv_messages : layout -> layout -> int -> (int * box) list

type strategy =
| StratCollectives
| StratExchange
| StratAuto

type splan =
| ByCollectives of refinement * plan
| ByExchange

val pairs_eqb : (int * int) list -> (int * int) list -> bool

val even_problem : layout -> layout -> bool

type rank_table =
| Contiguous of int * int
| Listed of int list

val rank_table_of : int list -> rank_table

val table_index : rank_table -> int -> int option

val box_in : layout -> rank_table -> int -> box option

val largest_box_in : layout -> rank_table -> int

val largest_box : layout -> int

val recv_bound_in : layout -> layout -> rank_table -> rank_table -> int -> int

val exchange_recv : layout -> layout -> int -> int

val largest_boxes : layout -> layout -> int * int

type xcheck_error =
| NotOneEvenMesh
| BadRefinement
| CollectivesRejected of check_error
| BadLayouts

type xreport = { xr_peak : int; xr_recv : (int -> int);
                 xr_collectives : report option }

val xcheck : layout -> layout -> splan -> (xcheck_error, xreport) res

val exchange_busiest : layout -> layout -> int

val plan_with : strategy -> layout -> layout -> splan option

type cmonoid = { zero : __; add : (__ -> __ -> __) }

type carrier = __

val msum : cmonoid -> carrier list -> carrier

type pty = ty * axis list

val pty_wf : mesh -> pty -> bool

val group_sum_along :
  cmonoid -> mesh -> axis list -> axis list -> device -> (device -> carrier)
  -> carrier

val group_sum :
  cmonoid -> mesh -> axis list -> device -> (device -> carrier) -> carrier

type sum_step =
| ReduceScatter of int * axis
| AllReduce of axis
| AddPending of axis

type sum_error =
| SumDimOutOfRange of int
| NotPending of axis
| ScatterNotDividing of int * axis
| PendingNotInMesh of axis
| PendingInUse of axis
| AlreadyPending of axis

val remove_axis : axis -> axis list -> axis list

val sum_step_type : mesh -> pty -> sum_step -> (sum_error, pty) res

val along : mesh -> device -> axis -> device list

val sum_wire :
  mesh -> pty -> sum_step -> device -> int list -> (device * int list) list

val exec_sum_step :
  cmonoid -> mesh -> pty -> sum_step -> carrier state -> carrier state

val sum_recv_count : mesh -> pty -> sum_step -> int

val sum_plan_type : mesh -> pty -> sum_step list -> (sum_error, pty) res

val exec_sum_plan :
  cmonoid -> mesh -> pty -> sum_step list -> carrier state -> carrier state

val world_rank : pmesh -> device -> int

val group_members_along :
  mesh -> axis list -> axis list -> device -> device list

val group_members : mesh -> axis list -> device -> device list

val pl_pending_wf : layout -> axis list -> bool

val pl_pending_value :
  cmonoid -> layout -> axis list -> carrier state -> carrier state

val reducing_sources :
  layout -> axis list -> layout -> holder_choice -> int -> int list ->
  (int * int list) list

val group_size : mesh -> axis list -> int

val designated : layout -> axis list -> int -> bool

val reducing_sources_to :
  layout -> axis list -> layout -> axis list -> holder_choice -> int -> int
  list -> (int * int list) list

val reducing_exchange_to :
  cmonoid -> layout -> axis list -> layout -> axis list -> holder_choice ->
  carrier state -> carrier state

type pstep =
| PCollective of collective
| PSum of sum_step

type pstep_error =
| CollectiveError of step_error
| SumError of sum_error
| MovesPending of collective

val pstep_type : mesh -> pty -> pstep -> (pstep_error, pty) res

val pplan_type : mesh -> pty -> pstep list -> (pstep_error, pty) res

val pstep_recv_count : mesh -> pty -> pty -> pstep -> int -> int

type sumplan =
| SumByCollectives of sum_step list * refinement * plan * sum_step list
| SumByExchange

type sum_step_report = { ss_step : sum_step; ss_type : pty;
                         ss_local_size : int; ss_recv : int }

val sum_steps_check :
  mesh -> pty -> sum_step list -> (sum_error, sum_step_report list * pty) res

val steps_recv : sum_step_report list -> int

val is_empty : 'a1 list -> bool

val same_axes : axis list -> axis list -> bool

type scheck_error =
| SumNotOneEvenMesh
| SumBadPending
| SumStepRejected of sum_error
| SumStillPending of axis list
| SumBadRefinement
| SumCollectivesRejected of check_error
| SumWrongEnd of pty

type sum_report = { sm_pre : sum_step_report list;
                    sm_collectives : report option;
                    sm_post : sum_step_report list; sm_peak : int;
                    sm_recv : (int -> int) }

val box_size_at : layout -> int -> int

val target_box_size : layout -> layout -> int -> int

val receives_sum : layout -> layout -> axis list -> int -> bool

val sum_recv_bound : layout -> axis list -> layout -> int -> int

val sum_exchange_recv :
  layout -> axis list -> layout -> axis list -> int -> int

val sum_exchange_ok : layout -> axis list -> layout -> axis list -> bool

val scheck :
  layout -> axis list -> layout -> axis list -> sumplan -> (scheck_error,
  sum_report) res

val reduced : mesh -> pty -> sum_step list -> pty

val sexec :
  cmonoid -> layout -> axis list -> layout -> axis list -> sumplan -> carrier
  state -> carrier state

val first_index : ('a1 -> bool) -> 'a1 list -> int option

val reduce_choice : bool -> mesh -> ty -> ty -> axis -> sum_step

val reduce_steps : bool -> mesh -> ty -> pty -> axis list -> sum_step list

val add_steps : axis list -> sum_step list

val sum_candidate :
  bool -> layout -> axis list -> layout -> axis list ->
  (sumplan * (int * int)) option

val keep_candidate :
  layout -> axis list -> layout -> axis list -> (sumplan * (int * int)) option

val qualifies : layout -> axis list -> layout -> axis list -> sumplan -> bool

val cheapest : (sumplan * (int * int)) list -> (sumplan * (int * int)) option

val sum_collectives :
  layout -> axis list -> layout -> axis list -> (sumplan * (int * int)) option

val sum_exchange_busiest : layout -> axis list -> layout -> axis list -> int

val plan_sums :
  strategy -> layout -> axis list -> layout -> axis list -> sumplan option

type buffer =
| BSrc
| BDst
| BPing
| BPong

val buffer_eqb : buffer -> buffer -> bool

val in_workspace : buffer -> bool

val next_work : buffer -> buffer

type call = { cl_op : collective option; cl_ty : ty; cl_shape : int list;
              cl_group : (int * int) option; cl_recv_from : int list;
              cl_in : buffer; cl_out : buffer; cl_in_bytes : int;
              cl_out_bytes : int; cl_scratch : int }

val outer_count : int list -> int -> int

val all_gather_scratch : int list -> int -> int -> int -> int

val all_to_all_scratch : int list -> int -> int -> int -> int -> int

val step_axis : ty -> collective -> axis option

val axis_group : mesh -> axis -> int * int

val recv_from_table : mesh -> ty -> ty -> int list

val step_scratch : int list -> collective -> int -> int -> int

val lower_step :
  mesh -> int -> ty -> ty -> collective -> buffer -> buffer -> call

val lower_steps : mesh -> int -> ty -> plan -> buffer -> call list

val copy_call : mesh -> int -> ty -> call

val lower : mesh -> int -> ty -> plan -> call list

val written_bytes : buffer -> call -> int

val ping_bytes : call list -> int

val pong_bytes : call list -> int

val scratch_bytes : call list -> int

val pong_offset : call list -> int

val scratch_offset : call list -> int

val workspace_bytes : call list -> int

val call_live : int -> int -> call -> int

val live_bytes : mesh -> int -> ty -> ty -> plan -> int

type 'a buffers = buffer -> 'a state

val write_buffer : 'a1 buffers -> buffer -> 'a1 state -> 'a1 buffers

val group_index : int -> (int * int) -> int

val group_member : int -> (int * int) -> int -> int

val rank_wire : call -> int -> int list -> int * int list

val run_call_rank : 'a1 buffers -> call -> 'a1 buffers

val interp_rank : call list -> 'a1 buffers -> 'a1 buffers

type xcall = { xc_from : layout; xc_to : layout;
               xc_recv : (int -> (int * box) list) }

val lower_exchange : layout -> layout -> xcall

val message_wire : xcall -> wire_map

type program =
| Calls of mesh * call list
| OneExchange of xcall

val lower_splan : int -> layout -> layout -> splan -> program

val box_bytes : layout -> int -> int -> int

val exchange_live : int -> layout -> layout -> int -> int

val exchange_live_bytes : int -> layout -> layout -> int

val splan_live_bytes : int -> layout -> layout -> splan -> int

val program_workspace_bytes : program -> int

type sbuffer =
| SSrc
| SRed0
| SRed1
| SDst

val sbuffer_eqb : sbuffer -> sbuffer -> bool

val next_red : sbuffer -> sbuffer

val in_red : sbuffer -> bool

type rcall = { rc_step : sum_step; rc_pty : pty; rc_shape : int list;
               rc_group : (int * int); rc_in : sbuffer; rc_out : sbuffer;
               rc_in_bytes : int; rc_out_bytes : int; rc_scratch : int }

val sum_step_axis : sum_step -> axis

val reduction_scratch : int list -> sum_step -> int -> int -> int

val sum_call :
  mesh -> int -> pty -> pty -> sum_step -> sbuffer -> sbuffer -> rcall

val lower_reductions :
  mesh -> int -> pty -> sum_step list -> sbuffer -> rcall list

val lower_additions : mesh -> int -> pty -> sum_step list -> rcall list

type sum_program = { sg_mesh : mesh; sg_pre : rcall list;
                     sg_coll_mesh : mesh; sg_calls : call list;
                     sg_post : rcall list }

val lower_sums :
  int -> layout -> axis list -> layout -> sum_step list -> refinement -> plan
  -> sum_step list -> sum_program

val red_written : sbuffer -> rcall -> int

val red0_bytes : sum_program -> int

val red1_bytes : sum_program -> int

val red_scratch_bytes : sum_program -> int

val red_scratch_offset : sum_program -> int

val collectives_offset : sum_program -> int

val sum_workspace_bytes : sum_program -> int

val rcall_live : int -> int -> rcall -> int

val reduced_bytes : sum_program -> int

val coll_live : sum_program -> int -> int -> call -> int

val sum_live_bytes : sum_program -> int -> int -> int

type link = { lk_latency_ns : int; lk_bytes_per_us : int }

type profile = { pf_same_host : link; pf_across_hosts : link;
                 pf_copy_bytes_per_us : int }

type hosts =
| RanksPerHost of int
| HostList of int list

val host_of : hosts -> int -> int

val transfer_ns : int -> int -> int

type route =
| Local
| SameHost
| AcrossHosts

val route_between : hosts -> int -> int -> route

type batch = (route * int) * int

val batch_ns : profile -> batch -> int

val rank_ns : profile -> batch list -> int

val members_on_host : hosts -> int -> (int * int) -> int

val scratch_copy : int -> batch list

val group_batches : hosts -> int -> (int * int) -> int -> batch list

val call_batches : hosts -> call -> int -> int -> batch list

val max_along : (int -> int -> int) -> int -> int -> int list -> int -> int

val exchange_batches :
  hosts -> bool -> rank_table -> rank_table -> int -> xcall -> int -> batch
  list

val spans_hosts : hosts -> int list -> bool

val max_over : int list -> (int -> int) -> int

val program_steps_ns : profile -> hosts -> int -> program -> int list

val predicted_ns : profile -> hosts -> int -> layout -> layout -> splan -> int

val collective_candidates : layout -> layout -> splan list

val strategy_candidates : strategy -> layout -> layout -> splan list

type costed = { cs_index : int; cs_plan : splan; cs_steps_ns : int list;
                cs_time_ns : int; cs_live_bytes : int; cs_traffic : int;
                cs_launches : int }

val splan_launches : splan -> int

val cost_candidate :
  profile -> hosts -> int -> layout -> layout -> int -> splan -> costed option

val cost_all :
  profile -> hosts -> int -> layout -> layout -> int -> splan list -> costed
  list

val lex_lt : int list -> int list -> bool

val cheaper : costed -> costed -> bool

val least : costed -> costed list -> costed

val fits : int option -> costed -> bool

type choose_error =
| NoCandidate
| BelowMinimum of int

type choice = { ch_best : costed; ch_slower : costed list;
                ch_over_budget : costed list }

val choose :
  profile -> hosts -> int -> int option -> strategy -> layout -> layout ->
  (choose_error, choice) res

val staged_share : int -> int -> int -> int -> int

val receivers : layout -> int list

val nccl_staging : layout -> layout -> int -> int

type rank_counts =
| NoCounts
| Counts of int * rank_counts * rank_counts

val count_at : positive -> rank_counts -> int

val add_count : positive -> int -> rank_counts -> rank_counts

val staged_at : int -> rank_counts -> int

val add_at : int -> int -> rank_counts -> rank_counts

val staged_messages : layout -> layout -> ((int * int) * int) list

val accumulate_staging :
  ((int * int) * int) list -> rank_counts -> rank_counts

val exchange_ranks : layout -> layout -> int list

val nccl_workspace_bytes : int -> layout -> layout -> int
