(** * Lowering a pending-sum plan to runtime calls in rank space.

    A [SumByCollectives pre rf p post] plan over mesh [m] runs, on every
    rank: the reductions [pre] (each a [reduce_scatter(d, group)] or an
    [all_reduce(group)] of [redist/mpi_reduce.hpp], its group the
    (stride, size) of its axis), the first reading the source and each
    writing the other of the two reduction arrays [SRed0] and [SRed1]; then
    the collectives of [p], lowered by [Lower.lower] on the refined mesh,
    reading the last reduction's array (the source when there is none) and
    writing the destination; then the [add_pending(group)] steps of [post],
    in place on the destination, each with the plan's [fill] (from the
    operation): with [KeepOne] the member with coordinate 0 along the axis
    keeps its value and the others hold the identity, with [KeepAll] every
    member keeps its value.

    The workspace is the two reduction arrays, then the reductions'
    scratch, then the collectives' workspace ([Lower.workspace_bytes]);
    each part is as large as its largest use.  The scratch of a reduction
    is the runtime's ([redist/reduce.hpp]: [reduce_scatter_scratch_bytes],
    [all_reduce_scratch_bytes]).

    [interp_sums] runs the calls over values of a commutative monoid, each
    with [Sums.exec_fill_step] and its fill; [Lowersumsproof.v] proves it
    gives what [Sumstrategy.sexec] gives, the bytes alive at every call and
    that the workspace is exactly what the calls use. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Layout Exchange Strategy Sums Sumstrategy Lower.

(** The user's source and destination, the reductions' two arrays. *)
Inductive sbuffer : Type := SSrc | SRed0 | SRed1 | SDst.
Scheme Equality for sbuffer.

Definition next_red (b : sbuffer) : sbuffer := match b with SRed0 => SRed1 | _ => SRed0 end.

Definition in_red (b : sbuffer) : bool := match b with SRed0 | SRed1 => true | _ => false end.

Record rcall : Type := {
  rc_step : sum_step;
  rc_fill : fill;                (** who keeps the value where an axis becomes pending *)
  rc_pty : pty;                  (** the pending-sum type of the array it reads *)
  rc_shape : list nat;           (** that array's local shape *)
  rc_group : nat * nat;          (** its axis's group: (stride, size) in rank space *)
  rc_in : sbuffer;
  rc_out : sbuffer;
  rc_in_bytes : nat;
  rc_out_bytes : nat;
  rc_scratch : nat
}.

Definition sum_step_axis (k : sum_step) : axis :=
  match k with ReduceScatter _ a | AllReduce a | AddPending a => a end.

(** [reduce_scatter_scratch_bytes] and [all_reduce_scratch_bytes]: the
    all-reduce holds every member's copy of one piece of [n / size]
    elements or of the [n mod size] tail, the larger. *)
Definition reduction_scratch (shape : list nat) (k : sum_step) (size elem : nat) : nat :=
  let n := prod shape in
  if size <=? 1 then 0 else
  match k with
  | ReduceScatter d _ => if d <? length shape then n * elem else 0
  | AllReduce _ => size * Nat.max (n / size) (n mod size) * elem
  | AddPending _ => 0
  end.

Definition sum_call (m : mesh) (elem : nat) (fl : fill) (p p' : pty) (k : sum_step) (inb outb : sbuffer)
  : rcall :=
  let group := axis_group m (sum_step_axis k) in
  {| rc_step := k; rc_fill := fl; rc_pty := p; rc_shape := local_shape m (fst p); rc_group := group;
     rc_in := inb; rc_out := outb;
     rc_in_bytes := local_size m (fst p) * elem; rc_out_bytes := local_size m (fst p') * elem;
     rc_scratch := reduction_scratch (local_shape m (fst p)) k (snd group) elem |}.

(** The reductions from [p], the first reading [inb]. *)
Fixpoint lower_reductions (m : mesh) (elem : nat) (fl : fill) (p : pty) (ks : list sum_step) (inb : sbuffer)
  : list rcall :=
  match ks with
  | [] => []
  | k :: ks' =>
      match sum_step_type m p k with
      | Error _ => []
      | OK p' =>
          let outb := next_red inb in sum_call m elem fl p p' k inb outb :: lower_reductions m elem fl p' ks' outb
      end
  end.

(** The additions of pending axes, in place on the destination. *)
Fixpoint lower_additions (m : mesh) (elem : nat) (fl : fill) (p : pty) (ks : list sum_step) : list rcall :=
  match ks with
  | [] => []
  | k :: ks' =>
      match sum_step_type m p k with
      | Error _ => []
      | OK p' => sum_call m elem fl p p' k SDst SDst :: lower_additions m elem fl p' ks'
      end
  end.

(** The array the reductions leave their result in. *)
Definition reductions_out (rs : list rcall) : sbuffer := last (map rc_out rs) SSrc.

Record sum_program : Type := {
  sg_mesh : mesh;
  sg_pre : list rcall;
  sg_coll_mesh : mesh;           (** the refined mesh the collectives run on *)
  sg_calls : list call;          (** the collectives, [Lower.lower] *)
  sg_post : list rcall
}.

(** avg's one division: the product of the sizes of the groups the lowered
    reductions add over ([PlanProgram::avg_divisor], the generated header's
    [kAvgDivisor]; [redist_avg_pending_correct] divides by it). *)
Definition avg_divisor (pg : sum_program) : nat := prod (map (fun c => snd (rc_group c)) (sg_pre pg)).

Definition lower_sums (elem : nat) (fl : fill) (S : layout) (ps : list axis) (T : layout) (pre : list sum_step)
    (rf : refinement) (p : plan) (post : list sum_step) : sum_program :=
  let m := ly_m S in
  let p1 := reduced m (ly_ty S, ps) pre in
  let m' := refine_mesh rf m in
  {| sg_mesh := m;
     sg_pre := lower_reductions m elem fl (ly_ty S, ps) pre SSrc;
     sg_coll_mesh := m';
     sg_calls := lower m' elem (refine_ty rf (fst p1)) p;
     sg_post := lower_additions m elem fl (ly_ty T, snd p1) post |}.

(** ** The workspace: the two reduction arrays, their scratch, the collectives' *)

Definition red_written (b : sbuffer) (c : rcall) : nat := if sbuffer_beq (rc_out c) b then rc_out_bytes c else 0.

Definition red0_bytes (pg : sum_program) : nat := list_max (map (red_written SRed0) (sg_pre pg)).
Definition red1_bytes (pg : sum_program) : nat := list_max (map (red_written SRed1) (sg_pre pg)).
Definition red_scratch_bytes (pg : sum_program) : nat := list_max (map rc_scratch (sg_pre pg)).
Definition red_scratch_offset (pg : sum_program) : nat := red0_bytes pg + red1_bytes pg.
Definition collectives_offset (pg : sum_program) : nat := red_scratch_offset pg + red_scratch_bytes pg.
Definition sum_workspace_bytes (pg : sum_program) : nat := collectives_offset pg + workspace_bytes (sg_calls pg).

Definition red_offset (pg : sum_program) (b : sbuffer) : nat := match b with SRed1 => red0_bytes pg | _ => 0 end.

(** The end of the last workspace byte a call uses (0 if none). *)
Definition rcall_extent (pg : sum_program) (c : rcall) : nat :=
  let touch b n := if in_red b then red_offset pg b + n else 0 in
  Nat.max (Nat.max (touch (rc_in c) (rc_in_bytes c)) (touch (rc_out c) (rc_out_bytes c)))
          (if rc_scratch c =? 0 then 0 else red_scratch_offset pg + rc_scratch c).

Definition coll_extent (pg : sum_program) (c : call) : nat :=
  let e := call_extent (sg_calls pg) c in if e =? 0 then 0 else collectives_offset pg + e.

Definition sum_program_extent (pg : sum_program) : nat :=
  list_max (map (rcall_extent pg) (sg_pre pg) ++ map (coll_extent pg) (sg_calls pg)).

(** ** Bytes alive on a rank during a call

    The user's source and destination, the reduction arrays the call reads
    and writes, and its scratch; during the collectives also the array
    the reductions left (when there were any), which the collectives read
    as their source. *)

Definition rcall_live (src_bytes tgt_bytes : nat) (c : rcall) : nat :=
  src_bytes + tgt_bytes
  + (if in_red (rc_in c) then rc_in_bytes c else 0)
  + (if in_red (rc_out c) then rc_out_bytes c else 0)
  + rc_scratch c.

Definition reduced_bytes (pg : sum_program) : nat :=
  match rev (sg_pre pg) with [] => 0 | c :: _ => rc_out_bytes c end.

Definition coll_live (pg : sum_program) (src_bytes tgt_bytes : nat) (c : call) : nat :=
  src_bytes + reduced_bytes pg + tgt_bytes
  + (if in_workspace (cl_in c) then cl_in_bytes c else 0)
  + (if in_workspace (cl_out c) then cl_out_bytes c else 0)
  + cl_scratch c.

Definition sum_live_bytes (pg : sum_program) (src_bytes tgt_bytes : nat) : nat :=
  list_max (map (rcall_live src_bytes tgt_bytes) (sg_pre pg ++ sg_post pg)
            ++ map (coll_live pg src_bytes tgt_bytes) (sg_calls pg)).

(** ** The interpreter over per-rank values of a commutative monoid

    Each rank's source, destination and reduction arrays are separate
    arrays; the collectives' ping, pong and scratch are [Lower]'s. *)

Definition sbuffers (A : Type) := sbuffer -> state A.

Definition write_sbuffer {A} (bs : sbuffers A) (b : sbuffer) (s : state A) : sbuffers A :=
  fun b' => if sbuffer_beq b' b then s else bs b'.

Definition run_rcall (M : cmonoid) (m : mesh) (bs : sbuffers (carrier M)) (c : rcall) : sbuffers (carrier M) :=
  write_sbuffer bs (rc_out c) (exec_fill_step M (rc_fill c) m (rc_pty c) (rc_step c) (bs (rc_in c))).

Definition initial_sbuffers {A} (src other : state A) : sbuffers A :=
  fun b => match b with SSrc => src | _ => other end.

Definition interp_sums (M : cmonoid) (pg : sum_program) (src other : state (carrier M))
  : sbuffers (carrier M) :=
  let m := sg_mesh pg in
  let bs1 := fold_left (run_rcall M m) (sg_pre pg) (initial_sbuffers src other) in
  let dst := interp (sg_coll_mesh pg) (sg_calls pg) (initial_buffers (bs1 (reductions_out (sg_pre pg))) other) BDst in
  fold_left (run_rcall M m) (sg_post pg) (write_sbuffer bs1 SDst dst).
