(** * The reducing exchange over holdings (Part 3: composed cuts with pending reductions).

    A source holding whose values are pending reductions: each rank [w]
    has a group [grp w] of world ranks (itself among them) holding the
    same indices at the same positions, and the array's value at a held
    index is the monoid sum ([msum], any commutative monoid: sum, prod,
    max, min) of the members' values there, combined in the order of
    [grp w] ([hd_pending_value]).  The target may be pending too, with its
    own groups and a fill ([Sums.fill]): [KeepOne], the members a
    designation picks (one per group) receive the value and the others
    hold the identity; [KeepAll] (idempotent operations: max, min), every
    member receives it.

    The data movement ([hreduce_sources]) reads the source holding, its
    groups, the target holding and the holder choice only: position [l] of
    a receiving target rank [r], global index [i], combines, from the
    identity, the values at [i] of every member of the group of the
    holder [h r i], in the order of that group.  For composed cuts
    ([cuts_group]) a group lists its world ranks in the order of the
    placed mesh's rank list (ascending mesh rank): the fixed order the
    runtime follows, which fixes floating-point results.

    - [hreduce_sound]: for any holder choice that returns holders, every
      target rank ends holding its holding of the reduced array, under the
      target's pending meaning.
    - [hreduce_recv_exact]: with a holder choice that keeps what a rank
      holds and groups of [G] members, a receiving rank receives the
      contributions it does not hold itself: [G - 1] per position whose
      index its source holds, [G] per missing one ([hmissing]); a rank
      the fill does not designate receives nothing.
    - [cuts_group_laws], [cuts_designated_once], [cuts_group_length],
      [cuts_reduce_exchange_sound], [cuts_reduce_exchange_recv]: the same
      for any two layouts of composed cuts with pending axes
      ([cpending_wf]), with [cuts_holder]; every group has [group_size]
      members. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Trafficproof Layout Layoutproof Exchange Sums Sumsproof Sumexchange.
From Redist Require Import Cuts Cutsproof Holding.

(** ** Pending holdings *)

(** What the group of rank [r] combines to at local position [l]. *)
Definition hd_pending_value (M : cmonoid) (grp : nat -> list nat) (st : state (carrier M))
  : state (carrier M) :=
  fun r l => msum M (map (fun w => st w l) (grp r)).

(** Every rank with a local array holds, as pending reductions over its
    group, its elements of [g]. *)
Definition hd_sholds (M : cmonoid) (H : holding) (grp : nat -> list nat) (g : list nat -> carrier M)
    (st : state (carrier M)) : Prop :=
  hd_holds H g (hd_pending_value M grp st).

(** The group of a rank with a local array lists each member once, itself
    among them, and every member has the same local shape and global index
    at every position. *)
Definition group_laws (H : holding) (grp : nat -> list nat) : Prop :=
  forall r s, hd_shape H r = Some s ->
    NoDup (grp r) /\ In r (grp r)
    /\ forall w, In w (grp r) ->
         hd_shape H w = Some s /\ (forall l, in_box s l -> hd_global H w l = hd_global H r l).

(** The target ranks that receive the value: the designated ones under
    [KeepOne], all under [KeepAll]. *)
Definition fill_receives (fl : fill) (desig : nat -> bool) (r : nat) : bool :=
  match fl with KeepOne => desig r | KeepAll => true end.

(** [KeepOne]: one designated member per target group; [KeepAll]: an
    operation that leaves a group of copies of a value at the value. *)
Definition fill_laws (M : cmonoid) (fl : fill) (T : holding) (grp : nat -> list nat)
    (desig : nat -> bool) : Prop :=
  match fl with
  | KeepOne => forall r s, hd_shape T r = Some s -> length (filter desig (grp r)) = 1
  | KeepAll => idempotent M
  end.

(** The (world rank, local index) pairs combined, in this order, into
    position [l] of target rank [r]; none for a rank the fill does not
    designate (it holds the identity); a rank outside the target keeps
    its value. *)
Definition hreduce_sources (S : holding) (grp : nat -> list nat) (T : holding) (recv : nat -> bool)
    (h : holder_choice) (r : nat) (l : list nat) : list (nat * list nat) :=
  match hd_shape T r with
  | Some _ =>
      if recv r
      then let i := hd_global T r l in map (fun w => (w, hd_local S w i)) (grp (h r i))
      else []
  | None => [(r, l)]
  end.

Definition hreduce_exchange (M : cmonoid) (S : holding) (grp : nat -> list nat) (T : holding)
    (recv : nat -> bool) (h : holder_choice) (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (fst src) (snd src)) (hreduce_sources S grp T recv h r l)).

(** Contributions rank [r] receives: those of other ranks. *)
Definition hreduce_received (S : holding) (grp : nat -> list nat) (T : holding) (recv : nat -> bool)
    (h : holder_choice) (r : nat) : nat :=
  length (filter (fun src => negb (fst src =? r))
                 (flat_map (hreduce_sources S grp T recv h r) (positions (hd_shape T) r))).

(** ** Soundness *)

Section Generic.
Variable M : cmonoid.
Notation A := (carrier M).

(** A member of the group of a holder of [i] holds [i] at the holder's local index. *)
Lemma group_member_local : forall H grp r w i, holding_laws H -> group_laws H grp ->
  hd_has H r i = true -> In w (grp r) ->
  hd_has H w i = true /\ hd_local H w i = hd_local H r i.
Proof.
  intros H grp r w i [H1 H2] HG Hi Hw.
  destruct (H2 r i Hi) as (s & Hs & Hl & Hgl).
  destruct (HG r s Hs) as (_ & _ & Hm). destruct (Hm w Hw) as [Hws Hwg].
  rewrite <- Hgl at 1 2. rewrite <- (Hwg _ Hl). exact (H1 w s _ Hws Hl).
Qed.

(** The members of a holder's group combine to the array's value. *)
Lemma group_value : forall S grp g (st : state A) s i,
  holding_laws S -> group_laws S grp -> hd_sholds M S grp g st -> hd_has S s i = true ->
  msum M (map (fun w => st w (hd_local S w i)) (grp s)) = g i.
Proof.
  intros S grp g st s i HS HG Hst Hi.
  destruct (proj2 HS s i Hi) as (sh & Hsh & Hl & Hgl).
  rewrite (msum_ext_in M _ _ (fun w => st w (hd_local S s i))).
  - pose proof (Hst s sh Hsh _ Hl) as E. unfold hd_pending_value in E. rewrite Hgl in E. exact E.
  - intros w Hw. f_equal. apply (group_member_local S grp s w i HS HG Hi Hw).
Qed.

Lemma msum_one_designated : forall (p : nat -> bool) (v : A) xs, length (filter p xs) = 1 ->
  msum M (map (fun w => if p w then v else zero M) xs) = v.
Proof.
  intros p v xs. induction xs as [|x xs IH]; simpl; intros H; [discriminate |].
  rewrite msum_cons. destruct (p x) eqn:E.
  - simpl in H. injection H as H.
    rewrite (msum_ext_in M _ _ (fun _ => zero M)), msum_map_zero; [apply add_zero_r |].
    intros w Hw. destruct (p w) eqn:Ew; [| reflexivity]. exfalso.
    assert (In w (filter p xs)) by (apply filter_In; auto). rewrite (length_zero_iff_nil _) in H.
    rewrite H in *. contradiction.
  - rewrite IH by exact H. apply add_zero_l.
Qed.

Lemma msum_copies : forall (v : A) (xs : list nat), idempotent M -> xs <> [] ->
  msum M (map (fun _ => v) xs) = v.
Proof.
  intros v xs Hid. induction xs as [|x xs IH]; intros Hne; [congruence |]. simpl map.
  rewrite msum_cons. destruct xs as [|y ys]; [apply add_zero_r |].
  rewrite IH by discriminate. apply Hid.
Qed.

(** The fill: if every receiving member of a target group holds the
    value and the others the identity, the group holds the value. *)
Lemma fill_sholds : forall fl desig T grpT g (st : state A),
  group_laws T grpT -> fill_laws M fl T grpT desig ->
  (forall r s l, hd_shape T r = Some s -> in_box s l ->
     st r l = if fill_receives fl desig r then g (hd_global T r l) else zero M) ->
  hd_sholds M T grpT g st.
Proof.
  intros fl desig T grpT g st HG Hfill Hst r s Hs l Hl. unfold hd_pending_value.
  destruct (HG r s Hs) as (_ & Hr & Hm).
  rewrite (msum_ext_in M _ _ (fun w => if fill_receives fl desig w then g (hd_global T r l) else zero M)).
  - destruct fl; simpl in *.
    + apply msum_one_designated, (Hfill r s Hs).
    + apply msum_copies; [exact Hfill |]. intros E. rewrite E in Hr. destruct Hr.
  - intros w Hw. destruct (Hm w Hw) as [Hws Hwg]. rewrite (Hst w s l Hws Hl), Hwg by exact Hl.
    reflexivity.
Qed.

Definition plain_target_group : nat -> list nat := fun r => [r].

End Generic.

Theorem hreduce_sound : forall M S grpS T grpT fl desig h g (st : state (carrier M)),
  holding_laws S -> group_laws S grpS -> group_laws T grpT -> fill_laws M fl T grpT desig ->
  hreturns_holders S T h -> hd_sholds M S grpS g st ->
  hd_sholds M T grpT g (hreduce_exchange M S grpS T (fill_receives fl desig) h st).
Proof.
  intros M S grpS T grpT fl desig h g st HS HGS HGT Hfill Hh Hst.
  apply (fill_sholds M fl desig); [exact HGT | exact Hfill |].
  intros r s l Hs Hl. unfold hreduce_exchange, hreduce_sources. rewrite Hs.
  destruct (fill_receives fl desig r); [| reflexivity].
  rewrite map_map. cbn [fst snd]. apply (group_value M S grpS g st); [assumption.. |].
  apply (Hh r s l Hs Hl).
Qed.

(** A plain target: every rank is its own group and receives the value. *)
Lemma plain_target_laws : forall M T, holding_laws T ->
  group_laws T plain_target_group /\ fill_laws M KeepOne T plain_target_group (fun _ => true).
Proof.
  intros M T _. split.
  - intros r s Hs. unfold plain_target_group. split; [repeat constructor; intros [] |].
    split; [left; reflexivity |]. intros w [<- | []]. split; [exact Hs | reflexivity].
  - intros r s _. reflexivity.
Qed.

(** ** Traffic *)

Lemma length_filter_other : forall (r : nat) xs, NoDup xs -> In r xs ->
  length (filter (fun w => negb (w =? r)) xs) = length xs - 1.
Proof.
  intros r xs. induction xs as [|x xs IH]; intros Hnd Hr; [destruct Hr |].
  inversion Hnd as [| ? ? Hx Hnd']. subst. simpl.
  destruct (Nat.eqb_spec x r) as [-> | Hne]; simpl.
  - rewrite (length_filter_const _ _ _ true); [lia |].
    intros w Hw. apply negb_true_iff, Nat.eqb_neq. intros ->. contradiction.
  - destruct Hr as [-> | Hr]; [congruence |]. rewrite IH by assumption.
    destruct xs; [destruct Hr | simpl; lia].
Qed.

Theorem hreduce_recv_exact : forall S grp T fl desig h r s G,
  holding_laws S -> group_laws S grp -> hreturns_holders S T h -> hpicks_self S h ->
  (forall w sh, hd_shape S w = Some sh -> length (grp w) = G) -> 1 <= G ->
  hd_shape T r = Some s ->
  hreduce_received S grp T (fill_receives fl desig) h r
  = if fill_receives fl desig r then (G - 1) * prod s + length (hmissing S T r) else 0.
Proof.
  intros S grp T fl desig h r s G HS HG Hh Hself HGsz HG1 Hs.
  unfold hreduce_received, hreduce_sources, positions, hmissing. rewrite Hs.
  destruct (fill_receives fl desig r).
  2: { induction (box_indices s) as [|l ls IH]; [reflexivity | exact IH]. }
  rewrite (count_flat_map_less_one _ _ _ _ (fun l => hd_has S r (hd_global T r l)) G _ HG1).
  - rewrite length_filter_map, length_box_indices. reflexivity.
  - intros l Hl. apply in_box_indices in Hl.
    set (i := hd_global T r l). pose proof (Hh r s l Hs Hl) as Hi. fold i in Hi.
    destruct (proj2 HS _ _ Hi) as (sh & Hsh & _).
    rewrite length_filter_map. cbn [fst].
    destruct (hd_has S r i) eqn:Hri.
    + rewrite (Hself r i Hri) in *. destruct (HG r sh Hsh) as (Hnd & Hr & _).
      rewrite length_filter_other by assumption. rewrite (HGsz r sh Hsh). reflexivity.
    + rewrite (length_filter_const _ _ _ true); [exact (HGsz _ _ Hsh) |].
      intros w Hw. apply negb_true_iff, Nat.eqb_neq. intros ->.
      destruct (group_member_local S grp (h r i) r i HS HG Hi Hw) as [E _]. congruence.
Qed.

(** ** Composed cuts with pending axes *)

(** Two devices in one pending group over [ps]: they agree on every mesh axis outside [ps]. *)
Definition same_group (m : mesh) (ps : list axis) (c c' : device) : bool :=
  forallb (fun a => memb a ps || (c a =? c' a)) (mesh_axes m).

(** The group of world rank [w] of [L] over the pending axes [ps]: the
    world ranks of its group, in the order of the placed mesh's rank list
    (ascending mesh rank), which is the order the runtime combines in. *)
Definition cuts_group (L : clayout) (ps : list axis) (w : nat) : list nat :=
  match cl_device L w with
  | Some c => filter (fun w' => match cl_device L w' with
                                | Some c' => same_group (cl_m L) ps c c'
                                | None => false
                                end)
                     (pm_ranks (cl_mesh L))
  | None => []
  end.

(** A layout of composed cuts pending over [ps]: well-formed, [ps] distinct
    mesh axes that no cut names. *)
Definition cpending_wf (L : clayout) (ps : list axis) : bool :=
  clayout_wf L && nodupb ps
  && forallb (fun a => memb a (mesh_axes (cl_m L)) && negb (memb a (cty_axes (cl_ty L)))) ps.

(** [KeepOne]'s designated member of a group: its pending coordinates are all 0. *)
Definition cuts_designated (L : clayout) (pt : list axis) (w : nat) : bool :=
  match cl_device L w with Some c => forallb (fun a => c a =? 0) pt | None => false end.

Lemma cpending_parts : forall L ps, cpending_wf L ps = true ->
  clayout_wf L = true /\ mesh_wf (cl_m L) = true
  /\ length (pm_ranks (cl_mesh L)) = mesh_size (cl_m L) /\ NoDup (pm_ranks (cl_mesh L))
  /\ forall a, memb a ps = true -> In a (mesh_axes (cl_m L)) /\ ~ In a (cty_axes (cl_ty L)).
Proof.
  intros L ps H. unfold cpending_wf in H. rewrite !andb_true_iff in H. destruct H as [[HL _] Hall].
  pose proof HL as HL'. unfold clayout_wf, pmesh_wf in HL'.
  rewrite !andb_true_iff, Nat.eqb_eq, ranks_distinct_NoDup in HL'. destruct HL' as [[[Hm Hlen] Hnd] _].
  split; [exact HL |]. split; [exact Hm |]. split; [exact Hlen |]. split; [exact Hnd |].
  intros a Ha. rewrite forallb_forall in Hall. specialize (Hall a (proj1 (memb_In a ps) Ha)).
  rewrite andb_true_iff, negb_true_iff in Hall. destruct Hall as [H1 H2]. split.
  - apply memb_In, H1.
  - intros Hin. apply memb_In in Hin. congruence.
Qed.

(** Devices that agree on every axis a cut names have the same local shape and indices. *)
Lemma c_parts_ext : forall m t c c', (forall x, In x (cty_axes t) -> c x = c' x) ->
  c_shape m t c = c_shape m t c' /\ forall l, c_global m t c l = c_global m t c' l.
Proof.
  intros m t c c'. induction t as [|d t IH]; intros H; [split; [reflexivity | intros [|y l]; reflexivity] |].
  destruct IH as [IH1 IH2]; [intros x Hx; apply H; simpl; apply in_or_app; right; exact Hx |].
  destruct (dim_owns_chunks m (fst d) (snd d) c c') as (_ & _ & E3 & E4).
  { apply Forall_forall. intros k Hk. apply radix_ext. intros x Hx. apply H. simpl.
    apply in_or_app. left. apply in_flat_map. exists k. split; assumption. }
  split.
  - unfold c_shape in *. simpl. rewrite E3. f_equal. exact IH1.
  - intros [|y l]; [reflexivity |]. simpl. rewrite E4, IH2. reflexivity.
Qed.

Lemma same_group_agrees : forall L ps c c', cpending_wf L ps = true ->
  same_group (cl_m L) ps c c' = true -> forall x, In x (cty_axes (cl_ty L)) -> c x = c' x.
Proof.
  intros L ps c c' Hw Hg x Hx. destruct (cpending_parts L ps Hw) as (HL & _ & _ & _ & Hps).
  unfold same_group in Hg. rewrite forallb_forall in Hg.
  assert (Hxm : In x (mesh_axes (cl_m L))).
  { unfold clayout_wf in HL. apply andb_true_iff in HL. eapply cty_wf_axes; [apply HL | exact Hx]. }
  specialize (Hg x Hxm). destruct (memb x ps) eqn:Hxp.
  - exfalso. exact (proj2 (Hps x Hxp) Hx).
  - apply Nat.eqb_eq. exact Hg.
Qed.

Lemma same_group_refl : forall m ps c, same_group m ps c c = true.
Proof. intros m ps c. apply forallb_forall. intros a _. rewrite Nat.eqb_refl. apply orb_true_r. Qed.

Lemma cl_device_index : forall L w c, cl_device L w = Some c ->
  exists k, index_of w (pm_ranks (cl_mesh L)) = Some k /\ c = device_of_rank (cl_m L) k.
Proof.
  intros L w c H. unfold cl_device in H. destruct (index_of w (pm_ranks (cl_mesh L))) as [k|]; [| discriminate].
  injection H as <-. exists k. split; reflexivity.
Qed.

Lemma cl_device_In : forall L w c, cl_device L w = Some c -> In w (pm_ranks (cl_mesh L)).
Proof.
  intros L w c H. destruct (cl_device_index L w c H) as (k & Hk & _).
  apply index_of_Some in Hk. destruct Hk as [Hk <-]. apply nth_In. exact Hk.
Qed.

Theorem cuts_group_laws : forall L ps, cpending_wf L ps = true ->
  group_laws (clayout_holding L) (cuts_group L ps).
Proof.
  intros L ps Hw r s Hs. destruct (cpending_parts L ps Hw) as (HL & Hm & Hlen & Hnd & Hps).
  simpl in Hs. unfold cuts_group. destruct (cl_device L r) as [c|] eqn:Hc; [| discriminate].
  injection Hs as <-. split; [apply NoDup_filter, Hnd |]. split.
  - apply filter_In. split; [exact (cl_device_In L r c Hc) |]. rewrite Hc. apply same_group_refl.
  - intros w Hw'. apply filter_In in Hw'. destruct Hw' as [_ Hg].
    destruct (cl_device L w) as [c'|] eqn:Hc'; [| discriminate].
    destruct (c_parts_ext (cl_m L) (cl_ty L) c c') as [E1 E2]; [apply (same_group_agrees L ps); assumption |].
    simpl. rewrite Hc'. simpl. split; [rewrite E1; reflexivity |].
    intros l _. unfold device_or_self. rewrite Hc, Hc'. symmetry. apply E2.
Qed.

(** Counting world ranks of a placed mesh by their mesh rank. *)
Lemma count_by_index : forall (R : nat -> bool) ws, NoDup ws ->
  length (filter (fun w => match index_of w ws with Some k => R k | None => false end) ws)
  = length (filter R (seq 0 (length ws))).
Proof.
  intros R ws. revert R. induction ws as [|x ws IH]; intros R Hnd; [reflexivity |].
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  rewrite (filter_ext_in _ (fun w => if w =? x then R 0
                                     else match index_of w ws with Some k => R (S k) | None => false end)).
  - cbn [filter length seq]. rewrite Nat.eqb_refl, <- seq_shift.
    rewrite (filter_ext_in _ (fun w => match index_of w ws with Some k => R (S k) | None => false end) ws).
    + assert (E : length (filter R (map S (seq 0 (length ws))))
                  = length (filter (fun w => match index_of w ws with Some k => R (S k) | None => false end) ws))
        by (rewrite length_filter_map; symmetry; apply (IH (fun k => R (S k)) Hnd')).
      destruct (R 0); cbn [length]; rewrite E; reflexivity.
    + intros w Hw. destruct (Nat.eqb_spec w x) as [-> | _]; [contradiction | reflexivity].
  - intros w _. cbn [index_of]. destruct (Nat.eqb_spec x w) as [-> | Hne].
    + rewrite Nat.eqb_refl. reflexivity.
    + destruct (Nat.eqb_spec w x); [congruence |]. destruct (index_of w ws); reflexivity.
Qed.

Lemma filter_filter_and : forall A (p q : A -> bool) l, filter p (filter q l) = filter (fun x => q x && p x) l.
Proof.
  intros A p q l. induction l as [|x l IH]; [reflexivity |]. simpl.
  destruct (q x); simpl; [destruct (p x) |]; rewrite ?IH; reflexivity.
Qed.

(** [KeepOne] designates one member of every group of a pending target. *)
Theorem cuts_designated_once : forall L pt, cpending_wf L pt = true ->
  forall r s, hd_shape (clayout_holding L) r = Some s ->
  length (filter (cuts_designated L pt) (cuts_group L pt r)) = 1.
Proof.
  intros L pt Hw r s Hs. destruct (cpending_parts L pt Hw) as (HL & Hm & Hlen & Hnd & Hps).
  simpl in Hs. destruct (cl_device L r) as [c|] eqn:Hc; [| discriminate].
  destruct (cl_device_index L r c Hc) as (k & Hk & ->). apply index_of_Some in Hk. destruct Hk as [Hk _].
  set (m := cl_m L) in *. set (c := device_of_rank m k).
  unfold cuts_group. rewrite Hc, filter_filter_and.
  set (R := fun k' => same_group m pt c (device_of_rank m k') && forallb (fun a => device_of_rank m k' a =? 0) pt).
  rewrite (filter_ext _ (fun w => match index_of w (pm_ranks (cl_mesh L)) with Some k' => R k' | None => false end)).
  2: { intros w. unfold cuts_designated, cl_device. destruct (index_of w (pm_ranks (cl_mesh L))); reflexivity. }
  rewrite count_by_index, Hlen by exact Hnd. fold m.
  set (d0 := fun a => if memb a pt then 0 else c a).
  assert (Hc_in : device_in m c) by (apply device_of_rank_in; [exact Hm | lia]).
  assert (Hd0 : device_in m d0).
  { intros x Hx. unfold d0. destruct (memb x pt); [apply mesh_wf_size_pos; assumption | apply Hc_in, Hx]. }
  rewrite (filter_ext_in _ (fun k' => k' =? rank m d0)); [apply count_seq_eq, rank_lt; assumption |].
  intros k' Hk'. apply in_seq in Hk'. apply eq_iff_eq_true. unfold R. rewrite andb_true_iff, Nat.eqb_eq. split.
  - intros [Hg Hz]. rewrite <- (rank_device_of_rank m k') by (exact Hm || lia). apply rank_ext.
    intros x Hx. unfold d0. destruct (memb x pt) eqn:E.
    + rewrite forallb_forall in Hz. apply Nat.eqb_eq, Hz, memb_In, E.
    + unfold same_group in Hg. rewrite forallb_forall in Hg. specialize (Hg x Hx). rewrite E in Hg.
      symmetry. apply Nat.eqb_eq, Hg.
  - intros ->. split.
    + unfold same_group. apply forallb_forall. intros a Ha.
      destruct (memb a pt) eqn:E; [reflexivity |]. simpl.
      rewrite device_of_rank_rank by assumption. unfold d0. rewrite E. apply Nat.eqb_refl.
    + apply forallb_forall. intros a Ha. apply memb_In in Ha.
      rewrite device_of_rank_rank by (try assumption; apply (Hps a Ha)). unfold d0. rewrite Ha. reflexivity.
Qed.

(** ** The size of a group *)

Lemma map_add_seq : forall k n, map (fun r => k + r) (seq 0 n) = seq k n.
Proof.
  intros k n. induction n as [|n IH]; [reflexivity |].
  rewrite !seq_S, map_app, IH. reflexivity.
Qed.

(** [q < s·w] read as the digits [(q / w, q mod w)]. *)
Lemma seq_digits : forall s w, seq 0 (s * w) = flat_map (fun j => map (fun r => j * w + r) (seq 0 w)) (seq 0 s).
Proof.
  intros s w. induction s as [|s IH]; [reflexivity |].
  replace (S s * w) with (s * w + w) by lia. rewrite seq_app, IH, seq_S, flat_map_app. simpl.
  rewrite app_nil_r, map_add_seq. reflexivity.
Qed.

Section Group_size.
Variable m : mesh.
Variable ps : list axis.

Lemma set_radix_base : forall xs q b b' a, In a xs -> set_radix m xs q b a = set_radix m xs q b' a.
Proof.
  induction xs as [|x xs IH]; intros q b b' a Ha; [destruct Ha |]. simpl.
  destruct (in_dec Nat.eq_dec a xs) as [Hin | Hnin]; [apply IH, Hin |].
  destruct Ha as [<- | Ha]; [| contradiction].
  rewrite !set_radix_notin by exact Hnin. rewrite !set_coord_same. reflexivity.
Qed.

(** The devices of the coordinates [xs] that agree with [c] outside [ps]:
    the product of the sizes of [ps]'s axes among [xs]. *)
Lemma count_agreeing : forall xs c b, NoDup xs ->
  (forall x, In x xs -> memb x ps = false -> c x < axis_size m x) ->
  length (filter (fun q => forallb (fun a => memb a ps || (c a =? set_radix m xs q b a)) xs)
                 (seq 0 (prod (map (axis_size m) xs))))
  = prod (map (axis_size m) (filter (fun x => memb x ps) xs)).
Proof.
  induction xs as [|x xs IH]; intros c b Hnd Hc; [reflexivity |].
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  set (w := prod (map (axis_size m) xs)). simpl map. simpl prod. fold w.
  rewrite seq_digits.
  rewrite (count_flat_map _ _ _ _ (fun j => memb x ps || (c x =? j)) (prod (map (axis_size m) (filter (fun x => memb x ps) xs)))).
  - simpl filter. destruct (memb x ps) eqn:Ex; simpl.
    + rewrite length_filter_true, seq_length. lia.
    + rewrite (filter_ext (fun j => c x =? j) (fun j => j =? c x)) by (intros j; apply Nat.eqb_sym).
      rewrite count_seq_eq by (apply Hc; [left; reflexivity | exact Ex]). lia.
  - intros j. rewrite length_filter_map.
    destruct (memb x ps || (c x =? j)) eqn:Ej.
    + rewrite <- (IH c b Hnd' (fun y Hy => Hc y (or_intror Hy))). fold w.
      apply f_equal, filter_ext_in. intros r Hr. apply in_seq in Hr.
      assert (Hq : (j * w + r) / w = j /\ (j * w + r) mod w = r).
      { split; [rewrite Nat.div_add_l, Nat.div_small by lia; lia |].
        rewrite Nat.add_comm, Nat.mod_add, Nat.mod_small by lia. reflexivity. }
      cbn [set_radix forallb]. fold w. rewrite (proj1 Hq), (proj2 Hq).
      rewrite set_radix_notin by exact Hx. rewrite set_coord_same, Ej. cbn [andb].
      apply forallb_ext_in. intros a Ha. rewrite (set_radix_base xs r _ b a Ha). reflexivity.
    + apply (length_filter_const _ _ _ false). intros r Hr. apply in_seq in Hr.
      assert (Hq : (j * w + r) / w = j) by (rewrite Nat.div_add_l, Nat.div_small by lia; lia).
      cbn [set_radix forallb]. fold w. rewrite Hq.
      rewrite set_radix_notin by exact Hx. rewrite set_coord_same, Ej. reflexivity.
Qed.

End Group_size.

(** Every group of a layout pending over [ps] has [group_size] members. *)
Theorem cuts_group_length : forall L ps w c, cpending_wf L ps = true -> cl_device L w = Some c ->
  length (cuts_group L ps w) = group_size (cl_m L) ps.
Proof.
  intros L ps w c Hw Hc. destruct (cpending_parts L ps Hw) as (HL & Hm & Hlen & Hnd & Hps).
  destruct (cl_device_index L w c Hc) as (k & Hk & ->). apply index_of_Some in Hk. destruct Hk as [Hk _].
  unfold cuts_group. rewrite Hc.
  rewrite (filter_ext _ (fun w' => match index_of w' (pm_ranks (cl_mesh L)) with
                                   | Some k' => same_group (cl_m L) ps (device_of_rank (cl_m L) k) (device_of_rank (cl_m L) k')
                                   | None => false end)).
  2: { intros w'. unfold cl_device. destruct (index_of w' (pm_ranks (cl_mesh L))); reflexivity. }
  rewrite count_by_index, Hlen, (mesh_size_prod _ Hm) by exact Hnd.
  unfold group_size, same_group, device_of_rank at 2.
  apply count_agreeing; [apply mesh_wf_NoDup, Hm |]. intros x Hx _.
  apply device_of_rank_in; [exact Hm | lia | exact Hx].
Qed.

Lemma group_size_pos : forall m ps, mesh_wf m = true -> 1 <= group_size m ps.
Proof.
  intros m ps Hm. unfold group_size. apply prod_pos. intros n Hn. apply in_map_iff in Hn.
  destruct Hn as (x & <- & Hx). apply filter_In in Hx. apply mesh_wf_size_pos; [exact Hm | apply Hx].
Qed.

Lemma cuts_fill_laws : forall M fl L pt, cpending_wf L pt = true -> (fl = KeepAll -> idempotent M) ->
  fill_laws M fl (clayout_holding L) (cuts_group L pt) (cuts_designated L pt).
Proof.
  intros M [|] L pt Hw Hid; simpl; [apply cuts_designated_once, Hw | apply Hid; reflexivity].
Qed.

(** Between any two layouts of composed cuts of one global shape, with
    pending axes [ps] on the source and [pt] on the target, the reducing
    exchange with [cuts_holder] leaves every target group combining to its
    elements of the array. *)
Theorem cuts_reduce_exchange_sound : forall M S ps T pt fl g (st : state (carrier M)),
  cpending_wf S ps = true -> cpending_wf T pt = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  (fl = KeepAll -> idempotent M) ->
  hd_sholds M (clayout_holding S) (cuts_group S ps) g st ->
  hd_sholds M (clayout_holding T) (cuts_group T pt) g
    (hreduce_exchange M (clayout_holding S) (cuts_group S ps) (clayout_holding T)
       (fill_receives fl (cuts_designated T pt)) (cuts_holder S) st).
Proof.
  intros M S ps T pt fl g st HwS HwT Hg Hid Hst.
  destruct (cpending_parts S ps HwS) as (HS & _). destruct (cpending_parts T pt HwT) as (HT & _).
  apply hreduce_sound; [apply cuts_holding_laws, HS | apply cuts_group_laws, HwS | apply cuts_group_laws, HwT
    | apply cuts_fill_laws; assumption | apply (cuts_holder_ok S T HS HT Hg) | exact Hst].
Qed.

(** With [cuts_holder], a receiving target rank receives, per position of
    its target array, the contributions of the other members of the source
    group that supplies it: [group_size - 1] where its source holds the
    element, [group_size] where it does not; a rank the fill does not
    designate receives nothing. *)
Theorem cuts_reduce_exchange_recv : forall S ps T pt fl r s,
  cpending_wf S ps = true -> cpending_wf T pt = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hd_shape (clayout_holding T) r = Some s ->
  hreduce_received (clayout_holding S) (cuts_group S ps) (clayout_holding T)
    (fill_receives fl (cuts_designated T pt)) (cuts_holder S) r
  = if fill_receives fl (cuts_designated T pt) r
    then (group_size (cl_m S) ps - 1) * prod s + length (hmissing (clayout_holding S) (clayout_holding T) r)
    else 0.
Proof.
  intros S ps T pt fl r s HwS HwT Hg Hs.
  destruct (cpending_parts S ps HwS) as (HS & Hm & _). destruct (cpending_parts T pt HwT) as (HT & _).
  destruct (cuts_holder_ok S T HS HT Hg) as [Hh Hself].
  apply hreduce_recv_exact; [apply cuts_holding_laws, HS | apply cuts_group_laws, HwS | exact Hh | exact Hself | | apply group_size_pos, Hm | exact Hs].
  intros w sh Hw. cbn [hd_shape clayout_holding] in Hw.
  destruct (cl_device S w) as [c|] eqn:Hc; [| discriminate]. apply (cuts_group_length S ps w c HwS Hc).
Qed.
