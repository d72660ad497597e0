(** * Lowering a plan of collectives to runtime calls in rank space.

    [lower m elem src p] turns a plan over mesh [m] (the refined mesh of a
    [ByCollectives] plan), with elements of [elem] bytes, into the calls the
    generated [run] makes: for each step its collective, its group as
    (stride, size) in rank space, the rank each rank receives from (a
    permute), the buffer it reads and the one it writes among source,
    destination and the workspace's ping and pong arrays, their sizes in
    bytes and the scratch it needs.  Step [i] reads what step [i - 1] wrote;
    the first reads the source, the last writes the destination, the others
    alternate ping and pong.  A plan without steps is one copy.

    The workspace is laid out as ping, then pong, then the scratch; each
    part is as large as the largest use of it.  The scratch of a collective
    is the runtime's fast path ([redist.hpp], [*_scratch_bytes]).

    [rank_wire] is what the runtime computes from a printed call alone (its
    group, shape, dimensions, table); [interp_rank] runs the calls with it.
    [lower_splan] lowers a plan with a strategy: the collectives' calls,
    one call of the direct exchange, or a hybrid's parts in sequence.

    [Lowerproof.v] proves that interpreting the calls over separate per-rank
    buffers leaves in the destination what [exec] gives (and, with
    [rank_wire], every target box), the bytes alive at every call, and that
    the workspace is exactly what the calls use. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Layout Exchange Strategy.

Inductive buffer : Type := BSrc | BDst | BPing | BPong.
Scheme Equality for buffer.

(** Ping and pong live in the workspace; source and destination are the user's. *)
Definition in_workspace (b : buffer) : bool :=
  match b with BPing | BPong => true | _ => false end.

(** The workspace array a step writes after one that wrote [b]. *)
Definition next_work (b : buffer) : buffer :=
  match b with BPing => BPong | _ => BPing end.

Record call : Type := {
  cl_op : option collective;     (** [None]: copy the source to the destination *)
  cl_ty : ty;                    (** the type of the array it reads *)
  cl_shape : list nat;           (** the local shape of the array it reads *)
  cl_group : option (nat * nat); (** (stride, size) in rank space; [None]: no group (permute, copy) *)
  cl_recv_from : list nat;       (** a permute: the rank each rank receives from *)
  cl_in : buffer;
  cl_out : buffer;
  cl_in_bytes : nat;
  cl_out_bytes : nat;
  cl_scratch : nat               (** bytes of scratch *)
}.

(** ** The runtime's scratch formulas (fast path) *)

(** How many separate contiguous runs a chunk along [d] of [shape] is. *)
Definition outer_count (shape : list nat) (d : nat) : nat := prod (firstn d shape).

(** [all_gather_scratch_bytes]: blocks arrive member-major and are
    interleaved from scratch unless the gathered dimension is outermost. *)
Definition all_gather_scratch (shape : list nat) (d size elem : nat) : nat :=
  if size <=? 1 then 0
  else if outer_count shape d =? 1 then 0
  else size * (prod shape * elem).

(** [all_to_all_scratch_bytes]: one local array when the send side needs
    packing or the receive side unpacking. *)
Definition all_to_all_scratch (shape : list nat) (s u size elem : nat) : nat :=
  let out := upd (upd shape s (nth s shape 0 * size)) u (nth u shape 0 / size) in
  if size <=? 1 then 0
  else if (1 <? outer_count shape u) || (1 <? outer_count out s) then prod shape * elem
  else 0.

(** ** One step *)

(** The mesh axis a collective's group runs along; a permute has none. *)
Definition step_axis (t : ty) (k : collective) : option axis :=
  match k with
  | DynSlice _ x => Some x
  | AllGather d | AllToAll d _ => Some (last_axis (fst (dim_of t d)))
  | AllPermute _ => None
  end.

(** The group of a collective over axis [x]: its weight in the rank and its size. *)
Definition axis_group (m : mesh) (x : axis) : nat * nat := weight_of (rank_weights m) x.

(** The device of rank [r] read off its digits [r / w mod s] ([ws]: the
    mesh's axis weights, found once per table), instead of rebuilding its
    coordinates through [set_radix] (cubic in the axes) for every rank. *)
Definition digit_device (ws : list (axis * (nat * nat))) (r : nat) : device :=
  fun x => let '(w, s) := weight_of ws x in r / w mod s.

(** [set_radix] with each axis's weight, the product of the sizes after
    it, found once ([radix_weights]). *)
Fixpoint radix_weights (m : mesh) (xs : list axis) : list (axis * nat) :=
  match xs with
  | [] => []
  | x :: xs' => (x, prod (map (axis_size m) xs')) :: radix_weights m xs'
  end.

Fixpoint set_digits (ws : list (axis * nat)) (q : nat) (c : device) : device :=
  match ws with
  | [] => c
  | (x, w) :: ws' => set_digits ws' (q mod w) (set_coord c x (q / w))
  end.

(** [radix] with the axes' sizes found once ([sized]). *)
Definition sized (m : mesh) (xs : list axis) : list (axis * nat) := map (fun x => (x, axis_size m x)) xs.

Definition radix_sized (xs : list (axis * nat)) (c : device) : nat :=
  fold_left (fun acc '(x, s) => acc * s + c x) xs 0.

(** [holder_from] over the dimensions' weights and sizes found once. *)
Fixpoint holder_digits (dims : list (list (axis * nat) * list (axis * nat))) (c0 c : device) : device :=
  match dims with
  | [] => c
  | (xs, ys) :: dims' => holder_digits dims' c0 (set_digits xs (radix_sized ys c0) c)
  end.

Definition holder_dims (m : mesh) (t t' : ty) : list (list (axis * nat) * list (axis * nat)) :=
  map (fun '(d, d') => (radix_weights m (fst d), sized m (fst d'))) (combine t t').

(** Which rank each rank takes its new box from in a permute to [t']: the
    rank of the holder of its box ([Lowerproof.recv_from_table_spec]),
    every mesh lookup done once per table, not per rank. *)
Definition recv_from_table (m : mesh) (t t' : ty) : list nat :=
  let device := if mesh_wf m then digit_device (rank_weights m) else device_of_rank m in
  let dims := holder_dims m t t' in
  let axes := sized m (mesh_axes m) in
  map (fun r => let c := device r in radix_sized axes (holder_digits dims c c)) (seq 0 (mesh_size m)).

Definition step_scratch (shape : list nat) (k : collective) (group_size elem : nat) : nat :=
  match k with
  | AllGather d => all_gather_scratch shape d group_size elem
  | AllToAll s u => all_to_all_scratch shape s u group_size elem
  | _ => 0
  end.

Definition lower_step (m : mesh) (elem : nat) (t t' : ty) (k : collective)
    (inb outb : buffer) : call :=
  let group := option_map (axis_group m) (step_axis t k) in
  {| cl_op := Some k;
     cl_ty := t;
     cl_shape := local_shape m t;
     cl_group := group;
     cl_recv_from := match k with AllPermute t'' => recv_from_table m t t'' | _ => [] end;
     cl_in := inb;
     cl_out := outb;
     cl_in_bytes := local_size m t * elem;
     cl_out_bytes := local_size m t' * elem;
     cl_scratch := match group with
                   | Some (_, size) => step_scratch (local_shape m t) k size elem
                   | None => 0
                   end |}.

(** The steps of [p] from type [t], the first reading [inb]. *)
Fixpoint lower_steps (m : mesh) (elem : nat) (t : ty) (p : plan) (inb : buffer) : list call :=
  match p with
  | [] => []
  | k :: p' =>
      match step_type m t k with
      | Error _ => []
      | OK t' =>
          let outb := match p' with [] => BDst | _ => next_work inb end in
          lower_step m elem t t' k inb outb :: lower_steps m elem t' p' outb
      end
  end.

Definition copy_call (m : mesh) (elem : nat) (src : ty) : call :=
  let n := local_size m src * elem in
  {| cl_op := None; cl_ty := src; cl_shape := local_shape m src; cl_group := None; cl_recv_from := [];
     cl_in := BSrc; cl_out := BDst; cl_in_bytes := n; cl_out_bytes := n; cl_scratch := 0 |}.

Definition lower (m : mesh) (elem : nat) (src : ty) (p : plan) : list call :=
  match p with
  | [] => [copy_call m elem src]
  | _ => lower_steps m elem src p BSrc
  end.

(** ** The workspace: ping, then pong, then scratch *)

Definition written_bytes (b : buffer) (c : call) : nat :=
  if buffer_beq (cl_out c) b then cl_out_bytes c else 0.

Definition ping_bytes (cs : list call) : nat := list_max (map (written_bytes BPing) cs).
Definition pong_bytes (cs : list call) : nat := list_max (map (written_bytes BPong) cs).
Definition scratch_bytes (cs : list call) : nat := list_max (map cl_scratch cs).

Definition pong_offset (cs : list call) : nat := ping_bytes cs.
Definition scratch_offset (cs : list call) : nat := ping_bytes cs + pong_bytes cs.
Definition workspace_bytes (cs : list call) : nat := scratch_offset cs + scratch_bytes cs.

Definition work_offset (cs : list call) (b : buffer) : nat :=
  match b with BPong => pong_offset cs | _ => 0 end.

(** The end of the last workspace byte a call reads or writes (0 if none). *)
Definition call_extent (cs : list call) (c : call) : nat :=
  let touch b n := if in_workspace b then work_offset cs b + n else 0 in
  Nat.max (Nat.max (touch (cl_in c) (cl_in_bytes c)) (touch (cl_out c) (cl_out_bytes c)))
          (if cl_scratch c =? 0 then 0 else scratch_offset cs + cl_scratch c).

(** ** Bytes alive on a rank during a call

    The user's source and destination, the workspace arrays the call reads
    and writes (the only ones holding data still needed), and its scratch. *)
Definition call_live (src_bytes tgt_bytes : nat) (c : call) : nat :=
  src_bytes + tgt_bytes
  + (if in_workspace (cl_in c) then cl_in_bytes c else 0)
  + (if in_workspace (cl_out c) then cl_out_bytes c else 0)
  + cl_scratch c.

Definition calls_live_bytes (src_bytes tgt_bytes : nat) (cs : list call) : nat :=
  list_max (map (call_live src_bytes tgt_bytes) cs).

Definition live_bytes (m : mesh) (elem : nat) (src tgt : ty) (p : plan) : nat :=
  calls_live_bytes (local_size m src * elem) (local_size m tgt * elem) (lower m elem src p).

(** ** The buffer model

    Each rank has its source, destination, ping and pong as separate arrays
    (so they cannot overlap); the scratch holds nothing between calls and is
    not modelled.  A call replaces the array it writes with the data the
    semantics' wire map moves from the array it reads. *)

Definition buffers (A : Type) := buffer -> state A.

Definition write_buffer {A} (bs : buffers A) (b : buffer) (s : state A) : buffers A :=
  fun b' => if buffer_beq b' b then s else bs b'.

Definition call_move {A} (m : mesh) (c : call) (s : state A) : state A :=
  match cl_op c with
  | None => s
  | Some k => exec_step m (cl_ty c) k s
  end.

Definition run_call {A} (m : mesh) (bs : buffers A) (c : call) : buffers A :=
  write_buffer bs (cl_out c) (call_move m c (bs (cl_in c))).

Definition interp {A} (m : mesh) (cs : list call) (bs : buffers A) : buffers A :=
  fold_left (run_call m) cs bs.

(** Before [run]: the source holds the user's data, every other array anything. *)
Definition initial_buffers {A} (src other : state A) : buffers A :=
  fun b => match b with BSrc => src | _ => other end.

(** ** Where a call reads each element, in rank space

    What the runtime computes from the printed call alone (its collective's
    dimensions, its group, the shape it reads, a permute's table): the rank
    and local index that element [l] of rank [r]'s new array comes from.
    [Lowerproof.lower_rank_wire] proves it is the semantics' wire map.  A
    group's member [k] and a rank's index in it are the runtime's
    [group_member] and [group_index] ([redist.hpp]). *)

Definition group_index (r : nat) (g : nat * nat) : nat := r / fst g mod snd g.
Definition group_member (r : nat) (g : nat * nat) (k : nat) : nat :=
  r - group_index r g * fst g + k * fst g.

Definition rank_wire (c : call) (r : nat) (l : list nat) : nat * list nat :=
  let shape := cl_shape c in
  match cl_op c, cl_group c with
  | Some (DynSlice d _), Some g =>
      (r, upd l d (nth d l 0 + group_index r g * (nth d shape 0 / snd g)))
  | Some (AllGather d), Some g =>
      let n := nth d shape 0 in
      (group_member r g (nth d l 0 / n), upd l d (nth d l 0 mod n))
  | Some (AllToAll s u), Some g =>
      let ns := nth s shape 0 in
      (group_member r g (nth s l 0 / ns),
       upd (upd l s (nth s l 0 mod ns)) u (group_index r g * (nth u shape 0 / snd g) + nth u l 0))
  | Some (AllPermute _), _ => (nth r (cl_recv_from c) 0, l)
  | _, _ => (r, l)
  end.

(** The calls run with [rank_wire] alone, as the runtime would. *)
Definition run_call_rank {A} (bs : buffers A) (c : call) : buffers A :=
  write_buffer bs (cl_out c) (fun r l => let '(r', l') := rank_wire c r l in bs (cl_in c) r' l').

Definition interp_rank {A} (cs : list call) (bs : buffers A) : buffers A :=
  fold_left run_call_rank cs bs.

(** ** A plan with a strategy

    The collectives lower to calls over the refined mesh; the direct
    exchange is one call of the runtime's [redist::Exchange], from the
    source straight to the destination, with no workspace.  Its peers are
    data: each rank's messages ([recv_messages]: per cell of its target
    box, the rank that sends it); a rank copies each cell from the sender's
    source box into its destination. *)

Record xcall : Type := {
  xc_from : layout;
  xc_to : layout;
  xc_recv : nat -> list (nat * box)   (** per world rank: (sender, cell) *)
}.

Definition lower_exchange (S T : layout) : xcall :=
  {| xc_from := S; xc_to := T; xc_recv := recv_messages S T |}.

(** Where element [l] of rank [r]'s destination comes from: the sender of
    the message whose cell holds its global index, at that index's place in
    the sender's source box. *)
Definition message_wire (x : xcall) : wire_map :=
  fun r l =>
    match pl_box (xc_to x) r with
    | Some tb =>
        let i := box_global tb l in
        match find (fun msg => box_has (snd msg) i) (xc_recv x r) with
        | Some (s, _) => (s, match pl_box (xc_from x) s with Some sb => box_local sb i | None => i end)
        | None => (r, l)
        end
    | None => (r, l)
    end.

(** A hybrid lowers to its parts in sequence, [Staged n first second]: the
    first part writes its result, the intermediate layout, into the first
    [n] bytes of the workspace (the largest intermediate box); the second
    reads it from there as its source.  Each part's own workspace follows
    the intermediate, one after the other part (they never run at once). *)
Inductive program : Type :=
| Calls (m : mesh) (cs : list call)
| OneExchange (x : xcall)
| Staged (mid_bytes : nat) (first second : program).

Fixpoint lower_splan (elem : nat) (S T : layout) (sp : splan) : program :=
  match sp with
  | ByCollectives rf p =>
      let m := refine_mesh rf (ly_m S) in Calls m (lower m elem (refine_ty rf (ly_ty S)) p)
  | ByExchange => OneExchange (lower_exchange S T)
  | ByThen mid a b => Staged (largest_box mid * elem) (lower_splan elem S mid a) (lower_splan elem mid T b)
  end.

(** A staged program: the first part from the user's source into the
    intermediate (its destination), the second from the intermediate (its
    source) into the user's destination; the user's source is kept. *)
Fixpoint run_program {A} (pg : program) (bs : buffers A) : buffers A :=
  match pg with
  | Calls m cs => interp m cs bs
  | OneExchange x => write_buffer bs BDst (run_wire (message_wire x) (bs BSrc))
  | Staged _ first second =>
      let mid := run_program first bs BDst in
      write_buffer (run_program second (initial_buffers mid (bs BDst))) BSrc (bs BSrc)
  end.

(** ** Bytes alive and workspace, per strategy

    The exchange holds on a rank its source box and its target box and
    nothing else: it sends from the source and receives into the
    destination (MPI datatypes, no staging), so a rank [w] has
    [(|source box| + |target box|) * elem] bytes alive, and the stated
    figure is [(largest source box + largest target box) * elem], from
    [largest_boxes] (linear on 65,536 devices).  The collectives:
    [live_bytes].  A hybrid: during its first part the user's destination
    is allocated too, during its second the user's source; each part counts
    the intermediate as its destination or source. *)

Definition box_bytes (L : layout) (elem w : nat) : nat :=
  match pl_box L w with Some b => box_size b * elem | None => 0 end.

Definition exchange_live (elem : nat) (S T : layout) (w : nat) : nat := box_bytes S elem w + box_bytes T elem w.

Definition exchange_live_bytes (elem : nat) (S T : layout) : nat :=
  (fst (largest_boxes S T) + snd (largest_boxes S T)) * elem.

Fixpoint splan_live_bytes (elem : nat) (S T : layout) (sp : splan) : nat :=
  match sp with
  | ByCollectives rf p =>
      live_bytes (refine_mesh rf (ly_m S)) elem (refine_ty rf (ly_ty S)) (refine_ty rf (ly_ty T)) p
  | ByExchange => exchange_live_bytes elem S T
  | ByThen mid a b =>
      Nat.max (splan_live_bytes elem S mid a + largest_box T * elem)
              (splan_live_bytes elem mid T b + largest_box S * elem)
  end.

Fixpoint program_workspace_bytes (pg : program) : nat :=
  match pg with
  | Calls _ cs => workspace_bytes cs
  | OneExchange _ => 0
  | Staged n first second => n + Nat.max (program_workspace_bytes first) (program_workspace_bytes second)
  end.
