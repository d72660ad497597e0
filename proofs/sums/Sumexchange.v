(** * The reducing exchange: pending sums on any layout.

    Where [reduce_scatter] and [all_reduce] do not apply (uneven blocks, two
    placed meshes), a source layout with pending axes [ps] reaches any target
    layout of the same global shape in one step: each element [i] of a target
    box gets the sum, over the [ps]-group of a source rank whose box has [i]
    (the holder choice [h] of the direct exchange), of the members' values at
    [i], in ascending member order.  The data movement
    ([reducing_sources]) reads only the source layout, [ps] and [h].

    - [reducing_exchange_sound]: for any holder choice that returns holders,
      if the source ranks hold pending sums of [g], every target rank ends
      with exactly its box of [g].
    - [reducing_exchange_recv_exact]: each target position costs one element
      per group member on another rank: the group size, less one when the
      rank is itself a member. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Trafficproof Layout Layoutproof Exchange
  Exchangeproof Sums Sumsproof.

(** ** The model *)

(** The world rank of a device of a placed mesh. *)
Definition world_rank (pm : pmesh) (c : device) : nat := nth (rank (pm_mesh pm) c) (pm_ranks pm) 0.

(** The members of [c]'s [ps]-group, in the order [group_sum] adds them. *)
Fixpoint group_members_along (m : mesh) (ps xs : list axis) (c : device) : list device :=
  match xs with
  | [] => [c]
  | x :: xs' =>
      if memb x ps
      then flat_map (fun k => group_members_along m ps xs' (set_coord c x k)) (seq 0 (axis_size m x))
      else group_members_along m ps xs' c
  end.

Definition group_members (m : mesh) (ps : list axis) (c : device) : list device :=
  group_members_along m ps (mesh_axes m) c.

(** A layout whose values are pending sums over the axes [ps] of its mesh:
    well-formed, [ps] distinct mesh axes sharding no dimension. *)
Definition pl_pending_wf (L : layout) (ps : list axis) : bool :=
  layout_wf L && nodupb ps
  && forallb (fun a => memb a (mesh_axes (ly_m L)) && negb (memb a (ty_axes (ly_ty L)))) ps.

(** What the [ps]-group of world rank [w] sums to at local index [l]. *)
Definition pl_pending_value (M : cmonoid) (L : layout) (ps : list axis)
    (st : state (carrier M)) : state (carrier M) :=
  fun w l =>
    match index_of w (pm_ranks (ly_mesh L)) with
    | Some k => group_sum M (ly_m L) ps (device_of_rank (ly_m L) k)
                          (fun c => st (world_rank (ly_mesh L) c) l)
    | None => st w l
    end.

(** Every rank of the mesh holds its box of [g] as pending sums over [ps]. *)
Definition pl_sholds (M : cmonoid) (L : layout) (ps : list axis) (g : list nat -> carrier M)
    (st : state (carrier M)) : Prop :=
  pl_holds L g (pl_pending_value M L ps st).

(** The (world rank, local index) pairs added into local index [l] of target
    rank [r]: every member of the group of [h r i], at its local index of
    [i].  A rank outside the target mesh keeps its value. *)
Definition reducing_sources (S : layout) (ps : list axis) (T : layout) (h : holder_choice)
    (r : nat) (l : list nat) : list (nat * list nat) :=
  match pl_box T r with
  | Some b =>
      let i := box_global b l in
      match index_of (h r i) (pm_ranks (ly_mesh S)) with
      | Some k =>
          map (fun c => (world_rank (ly_mesh S) c, box_local (dev_box (ly_m S) (ly_ty S) c) i))
              (group_members (ly_m S) ps (device_of_rank (ly_m S) k))
      | None => []
      end
  | None => [(r, l)]
  end.

Definition reducing_exchange (M : cmonoid) (S : layout) (ps : list axis) (T : layout)
    (h : holder_choice) (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (fst src) (snd src)) (reducing_sources S ps T h r l)).

(** Elements rank [r] receives: contributions to its target box from other ranks. *)
Definition reducing_received (S : layout) (ps : list axis) (T : layout) (h : holder_choice)
    (r : nat) : nat :=
  length (filter (fun src => negb (fst src =? r))
                 (flat_map (reducing_sources S ps T h r) (positions (pl_shapes T) r))).

(** ** Group members and group sums *)

Section Members.
Variable M : cmonoid.
Notation A := (carrier M).

Lemma msum_app : forall xs ys : list A, msum M (xs ++ ys) = add M (msum M xs) (msum M ys).
Proof.
  intros xs ys. induction xs as [|x xs IH]; simpl.
  - rewrite msum_nil, add_zero_l. reflexivity.
  - rewrite !msum_cons, IH. apply add_assoc.
Qed.

Lemma msum_flat_map : forall B C (f : C -> A) (g : B -> list C) ks,
  msum M (map f (flat_map g ks)) = msum M (map (fun k => msum M (map f (g k))) ks).
Proof.
  intros B C f g ks. induction ks as [|k ks IH]; simpl; [reflexivity |].
  rewrite map_app, msum_app, msum_cons, IH. reflexivity.
Qed.

Lemma group_sum_members : forall m ps xs c (f : device -> A),
  group_sum_along M m ps xs c f = msum M (map f (group_members_along m ps xs c)).
Proof.
  intros m ps xs. induction xs as [|x xs IH]; intros c f; simpl.
  - symmetry. apply msum_single.
  - destruct (memb x ps); [| apply IH].
    rewrite msum_flat_map. apply msum_ext_in. intros k _. apply IH.
Qed.

End Members.

(** ** Soundness *)

Lemma pl_pending_wf_parts : forall L ps, pl_pending_wf L ps = true ->
  layout_wf L = true /\ forall a, memb a ps = true -> ~ In a (ty_axes (ly_ty L)).
Proof.
  intros L ps H. unfold pl_pending_wf in H. apply andb_true_iff in H. destruct H as [H Hall].
  apply andb_true_iff in H. destruct H as [HL _]. split; [exact HL |].
  intros a Ha. rewrite forallb_forall in Hall. apply memb_In in Ha. specialize (Hall a Ha).
  apply andb_true_iff in Hall. destruct Hall as [_ Hn]. apply negb_true_iff, memb_false_notIn in Hn.
  exact Hn.
Qed.

Lemma layout_mesh_wf : forall L, layout_wf L = true -> mesh_wf (ly_m L) = true.
Proof.
  intros L H. unfold layout_wf, pmesh_wf, ly_m in *.
  apply andb_true_iff in H. destruct H as [H _]. apply andb_true_iff in H. destruct H as [H _].
  apply andb_true_iff in H. apply H.
Qed.

Theorem reducing_exchange_sound : forall M S ps T h g (st : state (carrier M)),
  pl_pending_wf S ps = true -> returns_holders S T h ->
  pl_sholds M S ps g st -> pl_holds T g (reducing_exchange M S ps T h st).
Proof.
  intros M S ps T h g st Hw Hh Hst r b Hb l Hl.
  destruct (pl_pending_wf_parts S ps Hw) as [HL Hps].
  assert (Hm : mesh_wf (ly_m S) = true) by (apply layout_mesh_wf; exact HL).
  set (i := box_global b l).
  pose proof (Hh r b i Hb (box_global_has b l Hl)) as Hi.
  unfold reducing_exchange, reducing_sources. rewrite Hb. fold i.
  unfold pl_box in Hi. destruct (index_of (h r i) (pm_ranks (ly_mesh S))) as [k|] eqn:Hk;
    [| discriminate].
  simpl in Hi. set (c := device_of_rank (ly_m S) k) in *.
  destruct (box_has_local _ i Hi) as [Hloc Hglob].
  assert (Hsb : pl_box S (h r i) = Some (dev_box (ly_m S) (ly_ty S) c))
    by (unfold pl_box; rewrite Hk; reflexivity).
  pose proof (Hst (h r i) _ Hsb _ Hloc) as E. rewrite Hglob in E. rewrite <- E.
  unfold pl_pending_value. rewrite Hk. fold c. unfold group_sum.
  rewrite map_map. unfold group_members. rewrite <- group_sum_members. simpl.
  assert (Hkl : k < mesh_size (ly_m S)).
  { apply index_of_Some in Hk. destruct Hk as [Hk _].
    unfold layout_wf, pmesh_wf in HL. apply andb_true_iff in HL. destruct HL as [HL _].
    apply andb_true_iff in HL. destruct HL as [HL _]. apply andb_true_iff in HL.
    destruct HL as [_ HL]. apply Nat.eqb_eq in HL. unfold ly_m. rewrite <- HL. exact Hk. }
  apply group_sum_in_group; [apply device_of_rank_in; assumption |].
  intros c' _ Hgroup. f_equal. f_equal. apply dev_box_ext. intros x Hx.
  apply Hgroup. destruct (memb x ps) eqn:Hxp; [| reflexivity].
  exfalso. exact (Hps x Hxp Hx).
Qed.

(** ** Traffic *)

Definition group_size (m : mesh) (ps : list axis) : nat :=
  prod (map (axis_size m) (filter (fun x => memb x ps) (mesh_axes m))).

Section Members_count.
Variable m : mesh.
Variable ps : list axis.

Lemma length_members : forall xs c,
  length (group_members_along m ps xs c) = prod (map (axis_size m) (filter (fun x => memb x ps) xs)).
Proof.
  induction xs as [|x xs IH]; intros c; simpl; [reflexivity |].
  destruct (memb x ps); [| apply IH]. simpl.
  rewrite <- length_filter_true.
  rewrite (count_flat_map _ _ _ _ (fun _ => true) (prod (map (axis_size m) (filter (fun x => memb x ps) xs)))).
  - rewrite length_filter_true, seq_length. lia.
  - intros k. rewrite length_filter_true. apply IH.
Qed.

Lemma members_outside : forall xs c c', In c' (group_members_along m ps xs c) ->
  forall y, ~ In y xs -> c' y = c y.
Proof.
  induction xs as [|x xs IH]; intros c c' H y Hy; simpl in H.
  - destruct H as [<- | []]. reflexivity.
  - destruct (memb x ps).
    + apply in_flat_map in H. destruct H as [k [_ Hk]].
      rewrite (IH _ _ Hk y) by (intros H; apply Hy; right; exact H).
      apply set_coord_other. intros ->. apply Hy. left. reflexivity.
    + apply (IH _ _ H). intros H'. apply Hy. right. exact H'.
Qed.

Lemma members_agree : forall xs c c', In c' (group_members_along m ps xs c) ->
  forall y, memb y ps = false -> c' y = c y.
Proof.
  induction xs as [|x xs IH]; intros c c' H y Hy; simpl in H.
  - destruct H as [<- | []]. reflexivity.
  - destruct (memb x ps) eqn:Hx.
    + apply in_flat_map in H. destruct H as [k [_ Hk]].
      rewrite (IH _ _ Hk y Hy). apply set_coord_other. intros ->. congruence.
    + apply (IH _ _ H y Hy).
Qed.

Lemma prod_sizes_pos : forall xs, (forall x, In x xs -> 1 <= axis_size m x) ->
  1 <= prod (map (axis_size m) xs).
Proof.
  induction xs as [|x xs IH]; intros H; simpl; [lia |].
  assert (1 <= axis_size m x) by (apply H; left; reflexivity).
  assert (1 <= prod (map (axis_size m) xs)) by (apply IH; intros y Hy; apply H; right; exact Hy).
  nia.
Qed.

Lemma members_in : forall xs c c', device_in m c -> In c' (group_members_along m ps xs c) ->
  device_in m c'.
Proof.
  induction xs as [|x xs IH]; intros c c' Hc H; simpl in H.
  - destruct H as [<- | []]. exact Hc.
  - destruct (memb x ps).
    + apply in_flat_map in H. destruct H as [k [Hk Hk']]. apply in_seq in Hk.
      apply (IH (set_coord c x k)); [apply device_in_set_coord; [exact Hc | lia] | exact Hk'].
    + apply (IH c); assumption.
Qed.

Lemma forallb_ext_in : forall (f g : nat -> bool) xs, (forall y, In y xs -> f y = g y) ->
  forallb f xs = forallb g xs.
Proof.
  intros f g xs H. induction xs as [|x xs IH]; simpl; [reflexivity |].
  rewrite H by (left; reflexivity). rewrite IH by (intros y Hy; apply H; right; exact Hy).
  reflexivity.
Qed.

Lemma count_seq_eq : forall j n, j < n -> length (filter (fun k => k =? j) (seq 0 n)) = 1.
Proof.
  intros j n Hj. pose proof (count_seq_neq j n Hj) as H.
  rewrite length_filter_negb, seq_length in H.
  pose proof (length_filter_le _ (fun k => k =? j) (seq 0 n)). rewrite seq_length in *.
  assert (length (filter (fun k => k =? j) (seq 0 n)) <> 0); [| lia].
  intros E. apply length_zero_iff_nil in E.
  assert (In j (filter (fun k => k =? j) (seq 0 n))) by (apply filter_In; split;
    [apply in_seq; lia | apply Nat.eqb_refl]).
  rewrite E in H1. destruct H1.
Qed.

(** Exactly one member of a group agrees with the starting device on [xs]: itself. *)
Lemma members_self_once : forall xs c0, NoDup xs ->
  (forall y, In y xs -> memb y ps = true -> c0 y < axis_size m y) ->
  length (filter (fun c => forallb (fun y => c y =? c0 y) xs) (group_members_along m ps xs c0)) = 1.
Proof.
  induction xs as [|x xs IH]; intros c0 Hnd Hr; simpl; [reflexivity |].
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  destruct (memb x ps) eqn:Hxp.
  - rewrite (count_flat_map _ _ _ _ (fun k => k =? c0 x) 1).
    + rewrite count_seq_eq; [lia | apply Hr; [left; reflexivity | exact Hxp]].
    + intros k. destruct (Nat.eqb_spec k (c0 x)) as [-> | Hne].
      * rewrite <- (IH (set_coord c0 x (c0 x))); [| exact Hnd' |].
        -- f_equal. apply filter_ext_in. intros c Hc.
           rewrite (members_outside xs _ c Hc x Hx), set_coord_same, Nat.eqb_refl. simpl.
           apply forallb_ext_in. intros y Hy. rewrite set_coord_other; [reflexivity |].
           intros ->. contradiction.
        -- intros y Hy Hyp. rewrite set_coord_other by (intros ->; contradiction).
           apply Hr; [right |]; assumption.
      * apply (length_filter_const _ _ _ false). intros c Hc.
        rewrite (members_outside xs _ c Hc x Hx), set_coord_same.
        destruct (Nat.eqb_spec k (c0 x)); [contradiction | reflexivity].
  - rewrite <- (IH c0 Hnd') by (intros y Hy; apply Hr; right; exact Hy).
    f_equal. apply filter_ext_in. intros c Hc.
    rewrite (members_outside xs _ c Hc x Hx), Nat.eqb_refl. reflexivity.
Qed.

End Members_count.

Lemma count_flat_map_less_one : forall A B (p : B -> bool) (f : A -> list B) (q : A -> bool) K ls,
  1 <= K -> (forall x, In x ls -> length (filter p (f x)) = if q x then K - 1 else K) ->
  length (filter p (flat_map f ls))
  = (K - 1) * length ls + length (filter (fun x => negb (q x)) ls).
Proof.
  intros A B p f q K ls HK H. induction ls as [|x ls IH]; simpl; [lia |].
  rewrite filter_app, app_length, IH by (intros y Hy; apply H; right; exact Hy).
  rewrite (H x (or_introl eq_refl)), Nat.mul_succ_r.
  destruct (q x); simpl; destruct K; simpl; lia.
Qed.

Lemma layout_parts : forall L, layout_wf L = true ->
  mesh_wf (ly_m L) = true /\ length (pm_ranks (ly_mesh L)) = mesh_size (ly_m L)
  /\ NoDup (pm_ranks (ly_mesh L)) /\ (forall x, In x (ty_axes (ly_ty L)) -> In x (mesh_axes (ly_m L))).
Proof.
  intros L H. unfold layout_wf, pmesh_wf in H. rewrite !andb_true_iff in H.
  destruct H as [[[H1 H2] H3] H4]. apply Nat.eqb_eq in H2. apply ranks_distinct_NoDup in H3.
  apply lty_wf_iff in H4. destruct H4 as [H4 _]. auto.
Qed.

(** With a holder choice that returns holders and keeps what a rank holds,
    rank [r] receives, per element of its target box, one contribution
    from each other member of the group that holds it: [|G| - 1] for an
    element of its own source box, [|G|] for a missing one.  With no
    pending axis ([|G| = 1]) this is the direct exchange's [missing]. *)
Theorem reducing_exchange_recv_exact : forall S ps T h r b,
  pl_pending_wf S ps = true -> returns_holders S T h -> picks_self S h -> pl_box T r = Some b ->
  reducing_received S ps T h r
  = (group_size (ly_m S) ps - 1) * box_size b + length (missing S T r).
Proof.
  intros S ps T h r b Hw Hh Hself Hb.
  destruct (pl_pending_wf_parts S ps Hw) as [HL Hps].
  destruct (layout_parts S HL) as [Hm [Hlen [Hnd Htm]]].
  set (G := group_size (ly_m S) ps).
  unfold reducing_received, positions, pl_shapes, missing. rewrite Hb. simpl.
  rewrite (count_flat_map_less_one _ _ _ _ (fun l => has_opt (pl_box S r) (box_global b l)) G).
  - rewrite length_filter_map, length_box_indices. unfold box_size. lia.
  - unfold G, group_size. apply prod_sizes_pos. intros x Hx. apply filter_In in Hx.
    apply mesh_wf_size_pos; [exact Hm | apply Hx].
  - intros l Hl. apply in_box_indices in Hl.
    set (i := box_global b l).
    pose proof (Hh r b i Hb (box_global_has b l Hl)) as Hi.
    unfold reducing_sources. rewrite Hb. fold i.
    unfold pl_box in Hi. destruct (index_of (h r i) (pm_ranks (ly_mesh S))) as [k|] eqn:Hk;
      [| discriminate].
    simpl in Hi. set (c := device_of_rank (ly_m S) k) in *.
    destruct (index_of_Some _ _ _ Hk) as [Hkl Hnk].
    assert (Hc : device_in (ly_m S) c) by (apply device_of_rank_in; [exact Hm | lia]).
    rewrite length_filter_map. simpl.
    assert (HG : length (group_members (ly_m S) ps c) = G) by apply length_members.
    (* A member's world rank is its mesh rank's entry in the placement. *)
    assert (Hworld : forall c', In c' (group_members (ly_m S) ps c) ->
              rank (ly_m S) c' < length (pm_ranks (ly_mesh S))).
    { intros c' Hc'. rewrite Hlen. apply rank_lt; [exact Hm |].
      apply (members_in _ _ _ _ _ Hc Hc'). }
    destruct (has_opt (pl_box S r) i) eqn:Hri.
    + pose proof (Hself r i Hri) as Ehr. rewrite Ehr in Hk, Hnk.
      rewrite length_filter_negb, HG.
      rewrite (filter_ext_in _ (fun c' => forallb (fun y => c' y =? c y) (mesh_axes (ly_m S)))).
      * unfold group_members. rewrite members_self_once; [reflexivity | apply mesh_wf_NoDup; exact Hm |].
        intros y Hy _. apply Hc. exact Hy.
      * intros c' Hc'. unfold world_rank.
        assert (Hc'in : device_in (ly_m S) c') by (apply (members_in _ _ _ _ _ Hc Hc')).
        destruct (forallb (fun y => c' y =? c y) (mesh_axes (ly_m S))) eqn:Hag.
        -- apply Nat.eqb_eq. rewrite <- Hnk. f_equal.
           transitivity (rank (ly_m S) c);
             [| unfold c; apply rank_device_of_rank; [exact Hm | lia]].
           apply rank_ext. intros y Hy. rewrite forallb_forall in Hag. apply Nat.eqb_eq. apply Hag. exact Hy.
        -- apply Nat.eqb_neq. intros E. rewrite <- Hnk in E.
           apply (NoDup_nth _ 0) in E; [| exact Hnd | apply Hworld; exact Hc' | exact Hkl].
           assert (Hrk : rank (ly_m S) c' = rank (ly_m S) c)
             by (unfold c; rewrite rank_device_of_rank by (auto; lia); exact E).
           pose proof (proj1 (rank_inj _ _ _ Hm Hc'in Hc) Hrk) as Hagree.
           assert (forallb (fun y => c' y =? c y) (mesh_axes (ly_m S)) = true); [| congruence].
           apply forallb_forall. intros y Hy. apply Nat.eqb_eq. apply Hagree. exact Hy.
    + rewrite (length_filter_const _ _ _ true); [exact HG |].
      intros c' Hc'. apply negb_true_iff, Nat.eqb_neq. intros E.
      assert (Hc'in : device_in (ly_m S) c') by (apply (members_in _ _ _ _ _ Hc Hc')).
      unfold world_rank in E.
      assert (Hidx : index_of r (pm_ranks (ly_mesh S)) = Some (rank (ly_m S) c'))
        by (rewrite <- E; apply index_of_nth; [exact Hnd | apply Hworld; exact Hc']).
      assert (Hbox : dev_box (ly_m S) (ly_ty S) (device_of_rank (ly_m S) (rank (ly_m S) c'))
                     = dev_box (ly_m S) (ly_ty S) c).
      { apply dev_box_ext. intros x Hx.
        rewrite device_of_rank_rank by (auto; apply Htm; exact Hx).
        apply (members_agree _ _ _ _ _ Hc'). destruct (memb x ps) eqn:Hxp; [| reflexivity].
        exfalso. exact (Hps x Hxp Hx). }
      unfold pl_box in Hri. rewrite Hidx, Hbox in Hri. simpl in Hri. congruence.
Qed.

(** ** Targets with pending sums *)

(** The member of each target group that receives the sum: pending
    coordinates all 0 (ranks outside the target mesh hold no box). *)
Definition designated (T : layout) (pt : list axis) (r : nat) : bool :=
  match index_of r (pm_ranks (ly_mesh T)) with
  | Some k => forallb (fun a => device_of_rank (ly_m T) k a =? 0) pt
  | None => true
  end.

(** The reducing exchange to a target with pending axes [pt]: the designated
    member of each target group gets the sum, the others hold [zero]. *)
Definition reducing_sources_to (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (h : holder_choice) (r : nat) (l : list nat) : list (nat * list nat) :=
  if designated T pt r then reducing_sources S ps T h r l else [].

Definition reducing_exchange_to (M : cmonoid) (S : layout) (ps : list axis) (T : layout)
    (pt : list axis) (h : holder_choice) (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (fst src) (snd src)) (reducing_sources_to S ps T pt h r l)).

Section Designated.
Variable M : cmonoid.
Notation A := (carrier M).
Variable m : mesh.

Lemma group_sum_const_zero : forall ps xs c,
  group_sum_along M m ps xs c (fun _ => zero M) = zero M.
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros c; simpl; [reflexivity |].
  destruct (memb x ps); [| apply IH].
  rewrite (msum_ext_in M _ _ (fun _ => zero M)) by (intros k _; apply IH).
  apply msum_map_zero.
Qed.

Lemma msum_seq_at : forall (f : nat -> A) n j, j < n ->
  (forall k, k < n -> k <> j -> f k = zero M) -> msum M (map f (seq 0 n)) = f j.
Proof.
  intros f n. induction n as [|n IH]; intros j Hj Hf; [lia |].
  rewrite seq_S, map_app, msum_app. simpl map. rewrite msum_single.
  destruct (Nat.eq_dec j n) as [-> | Hne].
  - rewrite (msum_ext_in M _ _ (fun _ => zero M))
      by (intros k Hk; apply in_seq in Hk; apply Hf; lia).
    rewrite msum_map_zero. apply add_zero_l.
  - rewrite (IH j) by (lia || (intros k Hk Hkj; apply Hf; lia)).
    rewrite (Hf n) by lia. apply add_zero_r.
Qed.

(** A group sum where only the member with pending coordinates [e] has a value. *)
Lemma group_sum_one_holder : forall ps xs c (e : axis -> nat) (v : A), NoDup xs ->
  (forall x, In x xs -> memb x ps = true -> e x < axis_size m x) ->
  (forall a, memb a ps = true -> ~ In a xs -> c a = e a) ->
  group_sum_along M m ps xs c (fun c' => if forallb (fun a => c' a =? e a) ps then v else zero M) = v.
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros c e v Hnd He H0; simpl.
  - match goal with |- (if ?b then _ else _) = _ => destruct b eqn:E end; [reflexivity |].
    exfalso. apply not_true_iff_false in E. apply E.
    apply forallb_forall. intros a Ha. apply Nat.eqb_eq, H0; [apply memb_In; exact Ha | auto].
  - inversion Hnd as [| ? ? Hx Hnd']. subst.
    destruct (memb x ps) eqn:Hxp.
    + rewrite (msum_seq_at _ _ (e x)); [| apply He; [left; reflexivity | exact Hxp] |].
      * apply IH; [exact Hnd' | intros y Hy; apply He; right; exact Hy |].
        intros a Ha Hna. unfold set_coord. destruct (Nat.eqb_spec a x) as [-> | Hax]; [reflexivity |].
        apply H0; [exact Ha |]. intros [E | E]; [congruence | contradiction].
      * intros k Hk Hke.
        transitivity (group_sum_along M m ps xs (set_coord c x k) (fun _ => zero M));
          [| apply group_sum_const_zero].
        apply group_sum_ext_in. intros c' Hout _.
        match goal with |- (if ?b then _ else _) = _ => destruct b eqn:Hall end; [| reflexivity].
        exfalso. rewrite forallb_forall in Hall.
        specialize (Hall x (proj1 (memb_In x ps) Hxp)). apply Nat.eqb_eq in Hall.
        rewrite Hout in Hall by tauto. rewrite set_coord_same in Hall. lia.
    + apply IH; [exact Hnd' | intros y Hy; apply He; right; exact Hy |].
      intros a Ha Hna. apply H0; [exact Ha |]. intros [E | E]; [congruence | contradiction].
Qed.

End Designated.

Lemma pending_in_mesh : forall L ps a, pl_pending_wf L ps = true -> memb a ps = true ->
  In a (mesh_axes (ly_m L)).
Proof.
  intros L ps a H Ha. unfold pl_pending_wf in H. rewrite !andb_true_iff in H.
  destruct H as [_ Hall]. rewrite forallb_forall in Hall. apply memb_In in Ha.
  specialize (Hall a Ha). apply andb_true_iff in Hall. apply memb_In, Hall.
Qed.

Lemma world_rank_index : forall L c, layout_wf L = true -> device_in (ly_m L) c ->
  index_of (world_rank (ly_mesh L) c) (pm_ranks (ly_mesh L)) = Some (rank (ly_m L) c).
Proof.
  intros L c HL Hc. destruct (layout_parts L HL) as [Hm [Hlen [Hnd _]]].
  apply index_of_nth; [exact Hnd |]. rewrite Hlen. apply rank_lt; assumption.
Qed.

(** A state in which, in every group, the member with pending coordinates
    [e] holds [g] of its box and the others zero holds pending sums of [g]. *)
Lemma one_holder_sholds : forall M L ps (e : axis -> nat) g (st : state (carrier M)),
  pl_pending_wf L ps = true -> (forall a, memb a ps = true -> e a < axis_size (ly_m L) a) ->
  (forall c l, device_in (ly_m L) c -> in_box (box_shape (dev_box (ly_m L) (ly_ty L) c)) l ->
     st (world_rank (ly_mesh L) c) l
     = if forallb (fun a => c a =? e a) ps then g (box_global (dev_box (ly_m L) (ly_ty L) c) l)
       else zero M) ->
  pl_sholds M L ps g st.
Proof.
  intros M L ps e g st Hw He Hst.
  destruct (pl_pending_wf_parts L ps Hw) as [HL Hps].
  destruct (layout_parts L HL) as [Hm [Hlen [Hnd Htm]]].
  intros w b Hb l Hl. unfold pl_pending_value.
  unfold pl_box in Hb. destruct (index_of w (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
  injection Hb as Hb. destruct (index_of_Some _ _ _ Hk) as [Hkl Hnk].
  set (c := device_of_rank (ly_m L) k) in *.
  assert (Hc : device_in (ly_m L) c) by (apply device_of_rank_in; [exact Hm | lia]).
  unfold group_sum.
  rewrite (group_sum_in_group M (ly_m L) ps c _
             (fun c' => if forallb (fun a => c' a =? e a) ps then g (box_global b l) else zero M));
    [| exact Hc |].
  - apply group_sum_one_holder; [apply mesh_wf_NoDup; exact Hm | |].
    + intros x _ Hx. apply He, Hx.
    + intros a Ha Hna. exfalso. exact (Hna (pending_in_mesh L ps a Hw Ha)).
  - intros c' Hc' Hgroup.
    assert (Hbox : dev_box (ly_m L) (ly_ty L) c' = b).
    { rewrite <- Hb. apply dev_box_ext. intros x Hx. apply Hgroup.
      destruct (memb x ps) eqn:Hxp; [| reflexivity]. exfalso. exact (Hps x Hxp Hx). }
    rewrite Hst, Hbox; [reflexivity | exact Hc' | rewrite Hbox; exact Hl].
Qed.

(** A target with pending axes [pt] (well-formed: [pl_pending_wf T pt]) is
    reached too: every target group sums to the rank's box of [g]. *)
Theorem reducing_exchange_to_sound : forall M S ps T pt h g (st : state (carrier M)),
  pl_pending_wf S ps = true -> pl_pending_wf T pt = true -> returns_holders S T h ->
  pl_sholds M S ps g st -> pl_sholds M T pt g (reducing_exchange_to M S ps T pt h st).
Proof.
  intros M S ps T pt h g st HwS HwT Hh Hst.
  pose proof (reducing_exchange_sound M S ps T h g st HwS Hh Hst) as Hplain.
  destruct (pl_pending_wf_parts T pt HwT) as [HL _].
  destruct (layout_parts T HL) as [Hm [_ [_ Htm]]].
  apply (one_holder_sholds M T pt (fun _ => 0)); [exact HwT | intros a Ha; apply mesh_wf_size_pos;
    [exact Hm | exact (pending_in_mesh T pt a HwT Ha)] |].
  intros c l Hc Hl. pose proof (world_rank_index T c HL Hc) as Hidx.
  unfold reducing_exchange_to, reducing_sources_to.
  replace (designated T pt (world_rank (ly_mesh T) c)) with (forallb (fun a => c a =? 0) pt).
  - destruct (forallb (fun a => c a =? 0) pt); [| reflexivity].
    apply Hplain; [| exact Hl]. unfold pl_box. rewrite Hidx. f_equal. apply dev_box_ext.
    intros x Hx. apply device_of_rank_rank; [exact Hm | exact Hc | apply Htm, Hx].
  - unfold designated. rewrite Hidx. apply forallb_ext_in. intros a Ha.
    rewrite device_of_rank_rank; [reflexivity | exact Hm | exact Hc |].
    apply (pending_in_mesh T pt a HwT), memb_In, Ha.
Qed.

Definition reducing_received_to (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (h : holder_choice) (r : nat) : nat :=
  length (filter (fun src => negb (fst src =? r))
                 (flat_map (reducing_sources_to S ps T pt h r) (positions (pl_shapes T) r))).

(** The designated member of a target group receives what the reducing
    exchange to the plain target receives; the others receive nothing. *)
Theorem reducing_exchange_to_recv : forall S ps T pt h r,
  reducing_received_to S ps T pt h r
  = if designated T pt r then reducing_received S ps T h r else 0.
Proof.
  intros S ps T pt h r. unfold reducing_received_to, reducing_sources_to.
  destruct (designated T pt r); [reflexivity |].
  induction (positions (pl_shapes T) r) as [|l ls IH]; [reflexivity | exact IH].
Qed.
