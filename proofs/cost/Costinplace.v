(** * The cost of an in-place schedule, and the choice within a memory budget with in place among the candidates.

    What the runtime does with a schedule ([runtime/src/in_place.cpp],
    [InPlace::run]): the rounds one after another; in a round every rank
    posts one receive per peer and one send per peer (its runs to or from
    that peer gathered into one MPI datatype: one message), copies its
    local moves (saves to the staging, moves within its buffer) with
    [memmove], and waits for all of its messages.  So a round is priced
    like a step of the exchange ([Cost.rank_ns] of batches): per receiving
    rank, one message per peer it receives from (a latency, and the bytes
    of its runs from that peer over the link between the two hosts) and
    its local moves at the copy rate; a round takes as long as its busiest
    receiving rank, a schedule the sum of its rounds.  The messages go by
    MPI ([pf_same_host]): the executor does not read peers' arrays in
    place, so the profile's single copy does not apply.  The time is
    defined from the schedule alone ([inplace_steps_ns]).

    The choice ([choose_within]): with a memory budget, [auto] weighs the
    out-of-place candidates of [Cost.choose] and (unless [in_place] is
    false) the in-place plan at the
    most staging the budget allows ([inplace_staging]: the budget less the
    largest buffer, at most that buffer, which with no more saves every
    blocked block in the first round), whose allocated bytes per rank are
    its buffer and staging; [Choose.choose_among] returns the cheapest
    that fits.  The staging is the most the budget allows
    ([Costinplaceproof.inplace_staging_most]): with more, the generator
    saves more blocked blocks per round, for fewer rounds.
    [Costinplaceproof.v] proves what the choice guarantees. *)

From Coq Require Import List Arith Lia Bool Orders Mergesort.
Import ListNotations.
From Redist Require Import Model Semantics Layout Exchange Strategy Lower Choose Cost Inplace.

(** ** The time of a schedule *)

(** A run of a round as (receiving rank, sending rank, bytes). *)
Module KeyedRun <: Orders.TotalLeBool'.
  Definition t : Type := (nat * nat * nat)%type.
  Definition leb (x y : t) : bool :=
    let '(to, from, _) := x in
    let '(to', from', _) := y in
    (to <? to') || ((to =? to') && (from <=? from')).
  Lemma leb_total : forall x y, leb x y = true \/ leb y x = true.
  Proof.
    intros [[a b] c] [[a' b'] c']. unfold leb.
    destruct (Nat.lt_trichotomy a a') as [H | [<- | H]].
    - left. apply orb_true_iff. left. apply Nat.ltb_lt. exact H.
    - rewrite Nat.ltb_irrefl, Nat.eqb_refl. simpl.
      destruct (Nat.le_ge_cases b b'); [left | right]; apply Nat.leb_le; lia.
    - right. apply orb_true_iff. left. apply Nat.ltb_lt. exact H.
  Qed.
End KeyedRun.

Module RunSort := Mergesort.Sort KeyedRun.

(** A message of [bytes] to [to] from [from]: a local copy when [from = to]. *)
Definition peer_ns (pf : profile) (h : hosts) (to from bytes : nat) : nat :=
  batch_ns pf (route_between h to from, 1, bytes).

(** Over runs sorted by (receiver, sender): [bytes], what [to] receives
    from [from] so far; [rank], [to]'s time without it; [best], the
    busiest receiver before [to]. *)
Fixpoint busiest_ns (pf : profile) (h : hosts) (to from bytes rank best : nat) (runs : list (nat * nat * nat)) : nat :=
  match runs with
  | [] => Nat.max best (rank + peer_ns pf h to from bytes)
  | (to', from', b) :: runs' =>
      if (to' =? to) && (from' =? from) then busiest_ns pf h to from (bytes + b) rank best runs'
      else if to' =? to then busiest_ns pf h to' from' b (rank + peer_ns pf h to from bytes) best runs'
      else busiest_ns pf h to' from' b 0 (Nat.max best (rank + peer_ns pf h to from bytes)) runs'
  end.

(** A round's predicted time: its busiest receiving rank's. *)
Definition round_ns (pf : profile) (h : hosts) (elem : nat) (rd : round) : nat :=
  match RunSort.sort (map (fun mv => (pl_rank (mv_to mv), pl_rank (mv_from mv), mv_len mv * elem)) rd) with
  | [] => 0
  | (to, from, b) :: runs => busiest_ns pf h to from b 0 0 runs
  end.

Definition inplace_steps_ns (pf : profile) (h : hosts) (elem : nat) (sc : schedule) : list nat :=
  map (round_ns pf h elem) sc.

Definition inplace_ns (pf : profile) (h : hosts) (elem : nat) (sc : schedule) : nat :=
  list_sum (inplace_steps_ns pf h elem sc).

(** ** The staging a budget allows *)

(** The largest buffer of a rank: what every rank allocates. *)
Definition largest_buffer (S T : layout) : nat := max_over (ranks_of S T) (buf_size S T).

(** The least budget in place: the largest buffer and one element of staging. *)
Definition inplace_least_budget (elem : nat) (S T : layout) : nat := (largest_buffer S T + 1) * elem.

(** The staging for [budget] bytes per rank: the budget less the largest
    buffer, in elements, at most that buffer (a rank never stages more
    than its buffer); without a budget, that most; [None] below
    [inplace_least_budget]. *)
Definition inplace_staging (elem : nat) (S T : layout) (budget : option nat) : option nat :=
  let most := Nat.max 1 (largest_buffer S T) in
  match budget with
  | None => Some most
  | Some b =>
      if b <? inplace_least_budget elem S T then None
      else Some (Nat.min most ((b - largest_buffer S T * elem) / elem))
  end.

(** ** The choice *)

Inductive buffer_plan : Type :=
| OutOfPlace (sp : splan)                   (** source and destination apart: [Cost.choose]'s candidates *)
| InPlace (staging : nat) (sc : schedule).  (** one buffer per rank and a staging of [staging] elements *)

Definition out_of_place (c : costed splan) : costed buffer_plan :=
  {| cs_index := cs_index c; cs_plan := OutOfPlace (cs_plan c); cs_steps_ns := cs_steps_ns c;
     cs_time_ns := cs_time_ns c; cs_live_bytes := cs_live_bytes c; cs_alloc_bytes := cs_alloc_bytes c;
     cs_traffic := cs_traffic c; cs_launches := cs_launches c |}.

(** The in-place plan at staging [B], candidate [i]: what a rank
    allocates and what is alive on it are its buffer and the staging
    ([Inplaceproof.inplace_live_bytes]); its launches are its rounds. *)
Definition cost_in_place (pf : profile) (h : hosts) (elem : nat) (S T : layout) (i B : nat)
  : option (costed buffer_plan) :=
  match inplace_plan S T B with
  | None => None
  | Some sc =>
      let steps := inplace_steps_ns pf h elem sc in
      let bytes := (largest_buffer S T + B) * elem in
      Some {| cs_index := i; cs_plan := InPlace B sc; cs_steps_ns := steps; cs_time_ns := list_sum steps;
              cs_live_bytes := bytes; cs_alloc_bytes := bytes;
              cs_traffic := max_over (ranks_of S T) (received sc); cs_launches := length sc |}
  end.

(** In place is weighed under [auto] with a budget, on well-formed
    layouts, at the staging the budget allows. *)
Definition in_place_candidates (pf : profile) (h : hosts) (elem : nat) (budget : option nat) (s : strategy)
    (S T : layout) (i : nat) : list (costed buffer_plan) :=
  match s, budget, inplace_staging elem S T budget with
  | StratAuto, Some _, Some B =>
      if layouts_wf S T then match cost_in_place pf h elem S T i B with Some c => [c] | None => [] end else []
  | _, _, _ => []
  end.

(** [in_place = false] leaves in place out: the command does so where
    generating and validating its schedule would take long and a plan out
    of place fits (as [hybrids] for the hybrids). *)
Definition within_candidates (hybrids in_place : bool) (pf : profile) (h : hosts) (elem : nat)
    (budget : option nat) (s : strategy) (S T : layout) : list (costed buffer_plan) :=
  let sps := strategy_candidates hybrids s S T in
  map out_of_place (cost_all pf h elem S T 0 sps)
  ++ (if in_place then in_place_candidates pf h elem budget s S T (length sps) else []).

Definition choose_within (hybrids in_place : bool) (pf : profile) (h : hosts) (elem : nat) (budget : option nat)
    (s : strategy) (S T : layout) : res choose_error (choice buffer_plan) :=
  choose_among budget (within_candidates hybrids in_place pf h elem budget s S T).
