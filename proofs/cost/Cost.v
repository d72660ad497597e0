(** * The cost model, and the choice of the fastest verified plan.

    A machine profile is data: per link class (two ranks on the same host,
    or on different hosts) a latency per message in nanoseconds and a
    bandwidth in bytes per microsecond, and the bandwidth of a local copy.
    Ranks map to hosts by a number of ranks per host or by a host list.

    The messages a rank receives in a step are read off the lowered program
    ([Lower.lower_splan]): a collective call's group, its permute table and
    its buffer sizes, or the exchange's messages of boxes
    ([Exchange.recv_messages], costed in closed form: [exchange_rank_ns],
    [Costclosed.v]); a message from the rank itself is a local copy, as is
    a slice, the copy of an empty plan and the scratch a collective packs
    through.  A rank's time in a step is the sum of its
    messages' latencies and transfer times; a step takes as long as its
    slowest rank; a plan, the sum of its steps.  A profile may say that the
    ranks of a host share redist's arrays ([pf_single_copy]): the
    exchanges' same-host messages and those of collectives whose group is
    on one host are then priced as one copy ([single_copy_profile],
    "Single copy on a host" below), everything else as before.

    The candidates of [choose]: for [StratAuto] every collective plan the
    planner builds (every candidate refinement and construction that
    qualifies, [Planner.assess]), the exchange, and the hybrids of the
    exchange with one collective ([hybrid_candidates]); for the other strategies
    [plan_with]'s plan.  Each is validated by [xcheck] and costed: its
    live bytes per rank, the most alive at once (source, destination and
    the workspace in use: [Lower.live_bytes] for collectives, the largest
    source and target boxes for the exchange, which has no workspace),
    and its allocated bytes per rank, what the caller allocates (source,
    destination and the whole workspace: [program_alloc_bytes], at least
    the live bytes).  Those whose allocated bytes exceed the budget are
    set aside; the least predicted time wins, then the least traffic of
    the busiest rank, then the fewest launches, then the earliest
    candidate ([Choose.choose_among]).  [Costproof.v] proves that the
    chosen plan is a validated candidate (so it is correct), that it fits
    the budget and is no slower than any candidate that fits, and that a
    budget below every candidate's allocated bytes is refused with the
    least of them. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Lower Choose.

(** ** Machine profiles *)

Record link : Type := {
  lk_latency_ns : nat;     (** per message *)
  lk_bytes_per_us : nat    (** bandwidth; 1000 bytes per microsecond is 1 GB/s *)
}.

Record profile : Type := {
  pf_same_host : link;     (** shared memory; NVLink between GPUs of one node *)
  pf_across_hosts : link;  (** the network *)
  pf_copy_bytes_per_us : nat;  (** a local copy (packing, slicing) *)
  pf_single_copy : option link
    (** [Some l]: the ranks of a host share the caller's arrays (allocated
        by redist: [redist_alloc], [redist::shared_alloc]), so a same-host
        message read out of them in place is one copy by the receiver, at
        [l]; [None]: every message goes by MPI ([pf_same_host]) *)
}.

(** Which host each world rank is on. *)
Inductive hosts : Type :=
| RanksPerHost (n : nat)   (** ranks [0 .. n - 1] on the first host, and so on *)
| HostList (hs : list nat).  (** rank [r] on host [nth r hs]; the command line checks that it names every rank *)

Definition host_of (h : hosts) (r : nat) : nat :=
  match h with
  | RanksPerHost n => r / n
  | HostList hs => nth r hs 0
  end.

(** Nanoseconds to move [bytes] at [bytes_per_us]; divided first, so that
    no intermediate value exceeds the time itself times 1000. *)
Definition transfer_ns (bytes_per_us bytes : nat) : nat :=
  bytes / bytes_per_us * 1000 + bytes mod bytes_per_us * 1000 / bytes_per_us.

(** ** Messages *)

(** How a message reaches a rank: from itself (a local copy), from a rank
    on its host, or from another host. *)
Inductive route : Type := Local | SameHost | AcrossHosts.

Definition route_between (h : hosts) (r from : nat) : route :=
  if from =? r then Local else if host_of h from =? host_of h r then SameHost else AcrossHosts.

(** [n] messages of [bytes] each over one route. *)
Definition batch : Type := (route * nat * nat)%type.

Definition batch_ns (pf : profile) (b : batch) : nat :=
  let '(rt, n, bytes) := b in
  n * match rt with
      | Local => transfer_ns (pf_copy_bytes_per_us pf) bytes
      | SameHost => lk_latency_ns (pf_same_host pf) + transfer_ns (lk_bytes_per_us (pf_same_host pf)) bytes
      | AcrossHosts =>
          lk_latency_ns (pf_across_hosts pf) + transfer_ns (lk_bytes_per_us (pf_across_hosts pf)) bytes
      end.

Definition rank_ns (pf : profile) (bs : list batch) : nat := list_sum (map (batch_ns pf) bs).

(** The members [group_member r g k] of rank [r]'s group on [r]'s host.
    With [n] ranks per host the members, an arithmetic progression of
    step [fst g] from [r]'s group base, meet the host's ranks
    [[lo, lo + n)] in a range of [k]: counted in constant time, as groups
    of 65,536 ranks are. *)
Definition members_on_host (h : hosts) (r : nat) (g : nat * nat) : nat :=
  let '(stride, size) := g in
  match h with
  | RanksPerHost n =>
      let base := r - group_index r g * stride in
      let lo := r / n * n in
      let first := (lo - base + stride - 1) / stride in
      let past := (lo + n - base + stride - 1) / stride in
      Nat.min size past - Nat.min size first
  | HostList _ =>
      length (filter (fun k => host_of h (group_member r g k) =? host_of h r) (seq 0 size))
  end.

(** A copy of [n] bytes through scratch, when the call packs. *)
Definition scratch_copy (n : nat) : list batch := if n =? 0 then [] else [(Local, 1, n)].

(** One block from every member of the group: its own a local copy
    ([group_member r g (group_index r g) = r]), the others over the links. *)
Definition group_batches (h : hosts) (r : nat) (g : nat * nat) (bytes : nat) : list batch :=
  let same := members_on_host h r g in
  [(Local, 1, bytes); (SameHost, same - 1, bytes); (AcrossHosts, snd g - same, bytes)].

(** Rank [r]'s messages in a call: a group's blocks, a permute's one block
    from [from] (its table's entry for [r]), a slice's or copy's local copy;
    a gather or an all-to-all also copies through scratch unless it runs
    [direct] (single copy: it reads the members' arrays in place). *)
Definition call_batches (h : hosts) (direct : bool) (c : call) (r from : nat) : list batch :=
  let packing := if direct then [] else scratch_copy (cl_scratch c) in
  match cl_op c, cl_group c with
  | None, _ => [(Local, 1, cl_in_bytes c)]
  | Some (DynSlice _ _), _ => [(Local, 1, cl_out_bytes c)]
  | Some (AllGather _), Some g => group_batches h r g (cl_in_bytes c) ++ packing
  | Some (AllToAll _ _), Some g => group_batches h r g (cl_in_bytes c / snd g) ++ packing
  | Some (AllPermute _), _ => [(route_between h r from, 1, cl_in_bytes c)]
  | Some _, None => []
  end.

(** The largest [f r from] over ranks [r .. r + n - 1], [from] read off
    [table] in step ([r] itself past its end): one pass, not a lookup per
    rank, as permute tables have 65,536 entries. *)
Fixpoint max_along (f : nat -> nat -> nat) (r n : nat) (table : list nat) (acc : nat) : nat :=
  match n with
  | 0 => acc
  | S n' =>
      match table with
      | from :: rest => max_along f (S r) n' rest (Nat.max acc (f r from))
      | [] => max_along f (S r) n' [] (Nat.max acc (f r r))
      end
  end.

(** Rank [r]'s messages in the exchange, listed (the specification of
    [exchange_rank_ns], which costs them): one per cell of its target box,
    from the sender the lowered call names ([xc_recv]), which is [r]
    itself exactly when [r] holds the cell.  On one host only that matters
    (every other sender is [SameHost]), so there the cells are read without
    the senders, whose lookup searches the source boxes
    ([Exchange.recv_messages] is [recv_cells] with a sender per cell).
    Boxes are found through the meshes' rank tables [tS], [tT]
    ([Strategy.box_in], [pl_box] in constant time on contiguous meshes). *)
Definition exchange_batches (h : hosts) (spanned : bool) (tS tT : rank_table) (elem : nat) (x : xcall) (r : nat)
  : list batch :=
  let S := xc_from x in
  let T := xc_to x in
  if spanned then map (fun '(from, cell) => (route_between h r from, 1, box_size cell * elem)) (xc_recv x r)
  else
    match box_in T tT r with
    | None => []
    | Some tb =>
        map (fun cell => (if has_opt (box_in S tS r) (map fst cell) then Local else SameHost, 1,
                          box_size cell * elem))
            (cell_boxes (dims_cuts tb (map (block_size (ly_m S)) (ly_ty S)) (map (block_size (ly_m T)) (ly_ty T))))
    end.

(** ** The exchange's cost in closed form

    [exchange_batches] lists a rank's messages one per cell: a gather on
    65,536 ranks is 65,536 cells on each, a transpose as many.  The cells
    are the product of each dimension's pieces ([cell_boxes] of
    [dims_cuts]), and a cell's cost depends only on its size and on whether
    the rank holds it, so a dimension's pieces are kept as runs of equal
    length, each marked inside the rank's source block or not, and a rank's
    time is a sum over one run per dimension, weighted by the runs' counts
    ([Costclosed.exchange_rank_ns_exact]).  A target block meets its
    source blocks in at most three runs (a partial block, whole blocks, a
    partial block), split where the rank's own source block begins and
    ends: a few runs per dimension whatever the number of ranks. *)

(** [cuts fuel lo hi bs bt] as runs [(length, count)] of equal pieces: from
    a multiple of [bs], the whole source blocks before the next target
    boundary (or [hi]) are one run; any other piece is a run of one. *)
Fixpoint cut_runs (fuel lo hi bs bt : nat) : list (nat * nat) :=
  match fuel with
  | 0 => []
  | S f =>
      if lo <? hi then
        let whole := (Nat.min hi (S (lo / bt) * bt) - lo) / bs in
        if (lo mod bs =? 0) && (1 <=? whole) then (bs, whole) :: cut_runs f (lo + whole * bs) hi bs bt
        else
          let next := Nat.min hi (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt)) in
          (next - lo, 1) :: cut_runs f next hi bs bt
      else []
  end.

(** Whether global index [x] of a dimension is in the block [(slo, sn)]. *)
Definition starts_in (slo sn x : nat) : bool := (slo <=? x) && (x <? slo + sn).

Definition clamp (lo hi x : nat) : nat := Nat.max lo (Nat.min hi x).

(** Whether [cuts] of [[lo, hi)] has a piece boundary at [x]. *)
Definition cut_at (lo hi bs x : nat) : bool := (x <=? lo) || (hi <=? x) || (x mod bs =? 0).

(** A run [(length, inside, count)]: [count] pieces of [length], inside the
    rank's source block or not. *)
Definition run : Type := (nat * bool * nat)%type.

Definition mark_runs (inside : bool) (rs : list (nat * nat)) : list run :=
  map (fun '(len, k) => (len, inside, k)) rs.

(** One dimension of a target box [(lo, n)], with the rank's source block
    [(slo, sn)] in it: the pieces before the source block, inside it, and
    after it.  A source block begins and ends at a multiple of [bs] or
    beyond the box, where [cuts] has boundaries, so its pieces are the
    cuts of the overlap; at any other [(slo, sn)] (no source block of a
    layout) the pieces are listed one by one, so that the runs are the
    pieces whatever the arguments. *)
Definition dim_runs (iv sv : nat * nat) (bs bt : nat) : list run :=
  let '(lo, n) := iv in
  let '(slo, sn) := sv in
  let hi := lo + n in
  let a := clamp lo hi slo in
  let b := clamp lo hi (slo + sn) in
  if cut_at lo hi bs a && cut_at lo hi bs b then
    mark_runs false (cut_runs (a - lo) lo a bs bt) ++ mark_runs true (cut_runs (b - a) a b bs bt)
    ++ mark_runs false (cut_runs (hi - b) b hi bs bt)
  else map (fun piece => (snd piece, starts_in slo sn (fst piece), 1)) (cuts n lo hi bs bt).

(** [dims_cuts] as runs, against the source box [sb]. *)
Fixpoint dims_runs (tb sb : box) (bss bts : list nat) : list (list run) :=
  match tb, sb, bss, bts with
  | iv :: tb', sv :: sb', bs :: bss', bt :: bts' =>
      dim_runs iv sv (Nat.max 1 bs) (Nat.max 1 bt) :: dims_runs tb' sb' bss' bts'
  | _, _, _, _ => []
  end.

(** The sum of [cell_ns inside size] over the cells, one run per dimension
    (as many cells as the product of the runs' counts): [inside] whether
    every dimension's run is inside, [size] the product of their lengths. *)
Fixpoint runs_sum (cell_ns : bool -> nat -> nat) (inside : bool) (size : nat) (rss : list (list run)) : nat :=
  match rss with
  | [] => cell_ns inside size
  | rs :: rss' => list_sum (map (fun '(len, i, k) => k * runs_sum cell_ns (inside && i) (size * len) rss') rs)
  end.

(** A cell's predicted time: a local copy if the rank holds it, else a
    message; on one host over the same-host link, across hosts over the
    slower of the two links, since the sender [spread_holder] picks among
    replicas is not counted here (an upper bound:
    [Costclosed.exchange_rank_ns_bound]). *)
Definition exchange_cell_ns (pf : profile) (spanned : bool) (elem : nat) (held : bool) (cells : nat) : nat :=
  let bytes := cells * elem in
  if held then batch_ns pf (Local, 1, bytes)
  else if spanned then Nat.max (batch_ns pf (SameHost, 1, bytes)) (batch_ns pf (AcrossHosts, 1, bytes))
  else batch_ns pf (SameHost, 1, bytes).

(** Rank [r]'s predicted time in the exchange: [rank_ns] of
    [exchange_batches] on one host, at least it across hosts. *)
Definition exchange_rank_ns (pf : profile) (spanned : bool) (tS tT : rank_table) (elem : nat) (S T : layout)
    : nat -> nat :=
  let source := box_in S tS in
  let target := box_in T tT in
  let bss := map (block_size (ly_m S)) (ly_ty S) in
  let bts := map (block_size (ly_m T)) (ly_ty T) in
  fun r =>
    match target r with
    | None => 0
    | Some tb =>
        let '(sb, held) := match source r with
                           | Some sb => (sb, true)
                           | None => (map (fun _ => (0, 0)) tb, false)
                           end in
        runs_sum (exchange_cell_ns pf spanned elem) held 1 (dims_runs tb sb bss bts)
    end.

(** Whether the world ranks [ws] are on more than one host. *)
Definition spans_hosts (h : hosts) (ws : list nat) : bool :=
  existsb (fun w => negb (host_of h w =? host_of h (hd 0 ws))) ws.

Definition max_over (ranks : list nat) (f : nat -> nat) : nat :=
  fold_left (fun acc r => Nat.max acc (f r)) ranks 0.

(** ** Single copy on a host

    With [pf_single_copy pf = Some l] the caller allocates its arrays
    (source, destination, workspace) with redist, so that the ranks of a
    host read each other's arrays in place, and a same-host message is one
    copy by the receiver at [l] (priced with [single_copy_profile pf],
    whose same-host link is [l]):
    - the direct exchange's messages out of the caller's source (the
      exchange alone, or the first part of a hybrid);
    - the reducing exchange's contributions out of the senders' sources
      ([Costsums.sum_steps_ns]);
    - a gather's or an all-to-all's blocks when the rank's whole group is
      on its host, and a permute's block when the mesh is on one host
      ([call_by_single_copy], the runtime's [PlanInterpreter::direct]);
      such a call reads the members' arrays in place, with no scratch.
    Everything else keeps its MPI price: the reductions, collectives whose
    group spans hosts, and an exchange reading an intermediate in the
    workspace (the second part of a hybrid, priced with
    [without_single_copy pf]).  The host barrier the runtime puts between
    steps is not priced apart: each message's latency at [l] stands for
    the synchronization.  [Costproof.single_copy_no_slower]: where [l] is
    no slower than the same-host link, no step costs more with single copy
    than without. *)
Definition without_single_copy (pf : profile) : profile :=
  {| pf_same_host := pf_same_host pf; pf_across_hosts := pf_across_hosts pf;
     pf_copy_bytes_per_us := pf_copy_bytes_per_us pf; pf_single_copy := None |}.

Definition single_copy_profile (pf : profile) : profile :=
  match pf_single_copy pf with
  | Some l => {| pf_same_host := l; pf_across_hosts := pf_across_hosts pf;
                 pf_copy_bytes_per_us := pf_copy_bytes_per_us pf; pf_single_copy := None |}
  | None => pf
  end.

Definition has_single_copy (pf : profile) : bool :=
  match pf_single_copy pf with Some _ => true | None => false end.

(** Whether the runtime moves call [c] on rank [r] by single copy when the
    arrays are shared: a gather or an all-to-all whose group is on [r]'s
    host, a permute on a mesh that is on one host ([one_host]). *)
Definition call_by_single_copy (h : hosts) (one_host : bool) (c : call) (r : nat) : bool :=
  match cl_op c, cl_group c with
  | Some (AllGather _), Some g => members_on_host h r g =? snd g
  | Some (AllToAll _ _), Some g => members_on_host h r g =? snd g
  | Some (AllPermute _), _ => one_host
  | _, _ => false
  end.

(** Rank [r]'s predicted time in call [c]. *)
Definition call_rank_ns (pf : profile) (h : hosts) (one_host : bool) (c : call) (r from : nat) : nat :=
  if has_single_copy pf && call_by_single_copy h one_host c r
  then rank_ns (single_copy_profile pf) (call_batches h true c r from)
  else rank_ns pf (call_batches h false c r from).

(** The predicted time of each step of a lowered program, in nanoseconds. *)
Fixpoint program_steps_ns (pf : profile) (h : hosts) (elem : nat) (pg : program) : list nat :=
  match pg with
  | Calls m cs =>
      let one_host := negb (spans_hosts h (seq 0 (mesh_size m))) in
      map (fun c => max_along (call_rank_ns pf h one_host c) 0 (mesh_size m) (cl_recv_from c) 0) cs
  | OneExchange x =>
      let spanned := spans_hosts h (pm_ranks (ly_mesh (xc_from x)) ++ pm_ranks (ly_mesh (xc_to x))) in
      let tS := rank_table_of (pm_ranks (ly_mesh (xc_from x))) in
      let tT := rank_table_of (pm_ranks (ly_mesh (xc_to x))) in
      [max_over (pm_ranks (ly_mesh (xc_to x)))
                (exchange_rank_ns (single_copy_profile pf) spanned tS tT elem (xc_from x) (xc_to x))]
  | Staged _ first second =>
      program_steps_ns pf h elem first ++ program_steps_ns (without_single_copy pf) h elem second
  end.

(** The predicted time of a plan. *)
Definition predicted_ns (pf : profile) (h : hosts) (elem : nat) (S T : layout) (sp : splan) : nat :=
  list_sum (program_steps_ns pf h elem (lower_splan elem S T sp)).

(** Live bytes per rank: [splan_live_bytes] of Lower.v. *)

(** ** Candidates *)

Definition collective_candidates (S T : layout) : list splan :=
  if even_problem S T then
    let m := ly_m S in
    flat_map (fun '(rf, p) =>
                match assess m (ly_ty S) (ly_ty T) rf p with
                | Some _ => [ByCollectives rf p]
                | None => []
                end)
             (candidates m (ly_ty S) (ly_ty T))
  else [].

(** Hybrids: the exchange and one collective in sequence, through an
    intermediate layout on the mesh of the collective ([xcheck] accepts
    only those whose collective part is even on one mesh at rank 0 and
    whose intermediate is on the target's ranks).
    - The exchange to the target sharded further over an axis the target
      replicates, then the all-gather over that axis: the exchange moves
      only the intermediate's share, the gather the rest (inside a host,
      when the axis is).
    - A slice or an all-to-all on the source mesh, then the exchange: the
      collective regroups the data over its axis before the exchange (its
      intermediate is placed as the target, which [xcheck] accepts when
      the source is on that placed mesh too).
    Every intermediate is on the target's placed mesh.  Axes of size 1 are
    left out: slicing or gathering over one moves nothing, so such a hybrid
    is the exchange with an empty step, and costing it is not free. *)
Definition moving_axes (m : mesh) : list axis := filter (fun x => 1 <? axis_size m x) (mesh_axes m).

Definition with_ty (L : layout) (t : ty) : layout := {| ly_mesh := ly_mesh L; ly_ty := t |}.

Definition exchange_then_gather (T : layout) : list splan :=
  flat_map (fun d =>
              flat_map (fun x =>
                          match step_type (ly_m T) (ly_ty T) (DynSlice d x) with
                          | OK mid => [ByThen (with_ty T mid) ByExchange (ByCollectives [] [AllGather d])]
                          | Error _ => []
                          end)
                       (moving_axes (ly_m T)))
           (seq 0 (length (ly_ty T))).

Definition collective_then_exchange (S T : layout) : list splan :=
  let dims := seq 0 (length (ly_ty S)) in
  flat_map (fun k =>
              match step_type (ly_m S) (ly_ty S) k with
              | OK mid => [ByThen (with_ty T mid) (ByCollectives [] [k]) ByExchange]
              | Error _ => []
              end)
           (flat_map (fun d => map (DynSlice d) (moving_axes (ly_m S))) dims
            ++ flat_map (fun s => map (AllToAll s) dims) dims).

Definition hybrid_candidates (S T : layout) : list splan :=
  exchange_then_gather T ++ collective_then_exchange S T.

(** [hybrids = false] leaves the hybrids out: the command does so where
    costing them would take long (each costs an exchange). *)
Definition strategy_candidates (hybrids : bool) (s : strategy) (S T : layout) : list splan :=
  match s with
  | StratAuto =>
      collective_candidates S T ++ (if layouts_wf S T then [ByExchange] else [])
      ++ (if hybrids then hybrid_candidates S T else [])
  | _ => match plan_with s S T with Some sp => [sp] | None => [] end
  end.

Fixpoint splan_launches (sp : splan) : nat :=
  match sp with
  | ByCollectives _ p => length (filter (fun k => negb (is_slice k)) p)
  | ByExchange => 1
  | ByThen _ a b => splan_launches a + splan_launches b
  end.

(** [splan_live_bytes] of a plan lowered to [pg] ([Costproof]: the same),
    read off [pg] so that a candidate is lowered once: a permute's table
    has an entry per rank. *)
Definition program_live_bytes (elem : nat) (S T : layout) (sp : splan) (pg : program) : nat :=
  match sp, pg with
  | ByCollectives rf _, Calls m cs =>
      calls_live_bytes (local_size m (refine_ty rf (ly_ty S)) * elem) (local_size m (refine_ty rf (ly_ty T)) * elem) cs
  | _, _ => splan_live_bytes elem S T sp
  end.

(** What the caller allocates on a rank for a plan lowered to [pg]: its
    source and destination arrays (the largest source and target boxes,
    the C ABI's and the header's source and target bytes) and the
    program's whole workspace ([program_workspace_bytes], all of it
    allocated up front).  The budget bounds this figure; it is at least
    the live bytes ([Costproof.splan_live_le_alloc]). *)
Definition program_alloc_bytes (elem : nat) (S T : layout) (pg : program) : nat :=
  (fst (largest_boxes S T) + snd (largest_boxes S T)) * elem + program_workspace_bytes pg.

Definition splan_alloc_bytes (elem : nat) (S T : layout) (sp : splan) : nat :=
  program_alloc_bytes elem S T (lower_splan elem S T sp).

Definition cost_candidate (pf : profile) (h : hosts) (elem : nat) (S T : layout) (i : nat) (sp : splan)
  : option (costed splan) :=
  match xcheck S T sp with
  | Error _ => None
  | OK rep =>
      let pg := lower_splan elem S T sp in
      let steps := program_steps_ns pf h elem pg in
      Some {| cs_index := i; cs_plan := sp;
              cs_steps_ns := steps;
              cs_time_ns := list_sum steps;
              cs_live_bytes := program_live_bytes elem S T sp pg;
              cs_alloc_bytes := program_alloc_bytes elem S T pg;
              cs_traffic := max_over (pm_ranks (ly_mesh T)) (xr_recv rep);
              cs_launches := splan_launches sp |}
  end.

Definition cost_all (pf : profile) (h : hosts) (elem : nat) (S T : layout) : nat -> list splan -> list (costed splan) :=
  cost_list (cost_candidate pf h elem S T).

(** ** The choice ([Choose.choose_among]) *)

Definition choose (hybrids : bool) (pf : profile) (h : hosts) (elem : nat) (budget : option nat) (s : strategy)
    (S T : layout) : res choose_error (choice splan) :=
  choose_among budget (cost_all pf h elem S T 0 (strategy_candidates hybrids s S T)).
