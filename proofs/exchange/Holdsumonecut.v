(** * Part 2's pending layouts are the one-cut case of pending holdings.

    [one_cut_pending_value]: on a Part 2 layout with pending axes [ps], read
    as one ceil-block cut per dimension, what a rank's group combines to
    over [Holdsum.cuts_group] (its world ranks in the placed mesh's order)
    is Part 2's [pl_pending_value] (a [group_sum] over [group_members]): the
    two list the same members, each once ([cuts_group_members]), and the
    operation is commutative.  So [one_cut_sholds]: a state holds Part 2's
    pending layout exactly when it holds the pending holding, and every
    theorem of [Holdsum] reads on Part 2's pending layouts. *)

From Coq Require Import List Arith Lia Bool Permutation.
Import ListNotations.
From Redist Require Import Model Radix Trafficproof Layout Layoutproof Exchange Sums Sumsproof Sumexchange.
From Redist Require Import Cuts Cutsproof Holding Holdsum.

Lemma msum_perm : forall M (xs ys : list (carrier M)), Permutation xs ys -> msum M xs = msum M ys.
Proof.
  intros M xs ys H. induction H as [| x xs ys H IH | x y xs | xs ys zs H1 IH1 H2 IH2].
  - reflexivity.
  - rewrite !msum_cons, IH. reflexivity.
  - rewrite !msum_cons, !add_assoc, (add_comm M y x). reflexivity.
  - congruence.
Qed.

Lemma NoDup_flat_map_disjoint : forall A B (g : A -> list B) l, NoDup l ->
  (forall a, In a l -> NoDup (g a)) ->
  (forall a a' b, In a l -> In a' l -> a <> a' -> In b (g a) -> ~ In b (g a')) -> NoDup (flat_map g l).
Proof.
  intros A B g l. induction l as [|a l IH]; intros Hnd Hg Hdis; simpl; [constructor |].
  inversion Hnd as [| ? ? Ha Hnd']. subst.
  apply NoDup_app_intro; [apply Hg; left; reflexivity | |].
  - apply IH; [exact Hnd' | intros a' Ha'; apply Hg; right; exact Ha' |].
    intros x y b Hx Hy; apply Hdis; right; assumption.
  - intros b Hb Hin. apply in_flat_map in Hin. destruct Hin as (a' & Ha' & Hb').
    apply (Hdis a a' b (or_introl eq_refl) (or_intror Ha')); [intros ->; contradiction | exact Hb | exact Hb'].
Qed.

Section Members.
Variable m : mesh.
Variable ps : list axis.
Hypothesis Hm : mesh_wf m = true.

(** Every device that agrees with [c] outside [ps] on [xs] is, on [xs], a member. *)
Lemma members_complete : forall xs c d, NoDup xs -> (forall y, In y xs -> In y (mesh_axes m)) -> device_in m d ->
  (forall y, In y xs -> memb y ps = false -> d y = c y) ->
  exists c', In c' (group_members_along m ps xs c) /\ forall y, In y xs -> c' y = d y.
Proof.
  induction xs as [|x xs IH]; intros c d Hnd Hxs Hd Hag.
  - exists c. split; [left; reflexivity | intros y []].
  - inversion Hnd as [| ? ? Hx Hnd']. subst. simpl. destruct (memb x ps) eqn:Hxp.
    + destruct (IH (set_coord c x (d x)) d Hnd' (fun y Hy => Hxs y (or_intror Hy)) Hd) as (c' & Hc' & Hagree).
      { intros y Hy Hyp. rewrite set_coord_other by (intros ->; contradiction). apply Hag; [right |]; assumption. }
      exists c'. split.
      * apply in_flat_map. exists (d x). split; [| exact Hc'].
        apply in_seq. split; [lia |]. simpl. apply Hd, Hxs. left. reflexivity.
      * intros y [<- | Hy]; [| apply Hagree, Hy].
        rewrite (members_outside m ps xs _ c' Hc' x Hx). apply set_coord_same.
    + destruct (IH c d Hnd' (fun y Hy => Hxs y (or_intror Hy)) Hd) as (c' & Hc' & Hagree);
        [intros y Hy; apply Hag; right; exact Hy |].
      exists c'. split; [exact Hc' |]. intros y [<- | Hy]; [| apply Hagree, Hy].
      rewrite (members_outside m ps xs _ c' Hc' x Hx). symmetry. apply Hag; [left; reflexivity | exact Hxp].
Qed.

Lemma map_flat_map_eq : forall A B C (f : B -> C) (g : A -> list B) l,
  map f (flat_map g l) = flat_map (fun a => map f (g a)) l.
Proof. intros A B C f g l. induction l as [|a l IH]; simpl; [reflexivity |]. rewrite map_app, IH. reflexivity. Qed.

(** The members of a group have distinct ranks. *)
Lemma members_ranks_NoDup : forall xs c, NoDup xs -> (forall y, In y xs -> In y (mesh_axes m)) -> device_in m c ->
  NoDup (map (rank m) (group_members_along m ps xs c)).
Proof.
  induction xs as [|x xs IH]; intros c Hnd Hxs Hc; simpl; [repeat constructor; intros [] |].
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  assert (Hxm : In x (mesh_axes m)) by (apply Hxs; left; reflexivity).
  assert (Hxs' : forall y, In y xs -> In y (mesh_axes m)) by (intros y Hy; apply Hxs; right; exact Hy).
  destruct (memb x ps); [| apply IH; assumption].
  rewrite map_flat_map_eq. apply NoDup_flat_map_disjoint; [apply seq_NoDup | |].
  - intros k Hk. apply in_seq in Hk. apply IH; [exact Hnd' | exact Hxs' | apply device_in_set_coord; [exact Hc | lia]].
  - intros k k' r Hk Hk' Hne Hr Hr'. apply in_seq in Hk, Hk'.
    apply in_map_iff in Hr, Hr'. destruct Hr as (c1 & <- & H1). destruct Hr' as (c2 & E & H2).
    assert (Hc1 : device_in m c1) by (apply (members_in m ps xs (set_coord c x k)); [apply device_in_set_coord; [exact Hc | lia] | exact H1]).
    assert (Hc2 : device_in m c2) by (apply (members_in m ps xs (set_coord c x k')); [apply device_in_set_coord; [exact Hc | lia] | exact H2]).
    apply (proj1 (rank_inj m c2 c1 Hm Hc2 Hc1)) with (x := x) in E; [| exact Hxm].
    rewrite (members_outside m ps xs _ c1 H1 x Hx), (members_outside m ps xs _ c2 H2 x Hx), !set_coord_same in E.
    apply Hne. symmetry. exact E.
Qed.

End Members.

(** The group of a rank of a Part 2 layout, read as one cut per dimension,
    lists the world ranks of Part 2's [group_members], each once. *)
Theorem cuts_group_members : forall L ps w k, layout_wf L = true ->
  index_of w (pm_ranks (ly_mesh L)) = Some k ->
  Permutation (cuts_group (clayout_of_layout L) ps w)
              (map (world_rank (ly_mesh L)) (group_members (ly_m L) ps (device_of_rank (ly_m L) k))).
Proof.
  intros L ps w k HL Hk. destruct (layout_parts L HL) as [Hm [Hlen [Hnd _]]].
  destruct (index_of_Some _ _ _ Hk) as [Hkl _].
  set (m := ly_m L) in *. set (c := device_of_rank m k).
  assert (Hc : device_in m c) by (apply device_of_rank_in; [exact Hm | lia]).
  assert (Hax : forall y, In y (mesh_axes m) -> In y (mesh_axes m)) by auto.
  unfold cuts_group, cl_device, cl_m. cbn [cl_mesh clayout_of_layout]. rewrite Hk. cbn [option_map]. change (pm_mesh (ly_mesh L)) with m. fold c.
  apply NoDup_Permutation.
  - apply NoDup_filter, Hnd.
  - replace (map (world_rank (ly_mesh L)) (group_members m ps c))
      with (map (fun k' => nth k' (pm_ranks (ly_mesh L)) 0) (map (rank m) (group_members m ps c)))
      by (rewrite map_map; reflexivity).
    apply NoDup_map_in.
    + intros a b Ha Hb E. apply in_map_iff in Ha, Hb.
      destruct Ha as (ca & <- & Ha). destruct Hb as (cb & <- & Hb).
      assert (Hca : rank m ca < length (pm_ranks (ly_mesh L)))
        by (rewrite Hlen; apply rank_lt; [exact Hm | apply (members_in m ps (mesh_axes m) c); assumption]).
      assert (Hcb : rank m cb < length (pm_ranks (ly_mesh L)))
        by (rewrite Hlen; apply rank_lt; [exact Hm | apply (members_in m ps (mesh_axes m) c); assumption]).
      exact (proj1 (NoDup_nth _ 0) Hnd _ _ Hca Hcb E).
    + apply members_ranks_NoDup; [exact Hm | apply mesh_wf_NoDup, Hm | exact Hax | exact Hc].
  - intros w'. rewrite filter_In, in_map_iff. split.
    + intros [Hw' Hg]. destruct (index_of w' (pm_ranks (ly_mesh L))) as [k'|] eqn:Hk'; [| discriminate].
      cbn [option_map] in Hg. destruct (index_of_Some _ _ _ Hk') as [Hk'l Hnth].
      assert (Hd : device_in m (device_of_rank m k')) by (apply device_of_rank_in; [exact Hm | lia]).
      destruct (members_complete m ps (mesh_axes m) c (device_of_rank m k') (mesh_wf_NoDup _ Hm) Hax Hd)
        as (c' & Hc' & Hagree).
      { intros y Hy Hyp. unfold same_group in Hg. rewrite forallb_forall in Hg. specialize (Hg y Hy).
        rewrite Hyp in Hg. symmetry. apply Nat.eqb_eq, Hg. }
      exists c'. split; [| exact Hc']. rewrite <- Hnth. unfold world_rank. change (pm_mesh (ly_mesh L)) with m. f_equal.
      transitivity (rank m (device_of_rank m k')); [apply rank_ext, Hagree | apply rank_device_of_rank; [exact Hm | lia]].
    + intros (c' & <- & Hc').
      assert (Hc'in : device_in m c') by (apply (members_in m ps (mesh_axes m) c); assumption).
      assert (Hr : rank m c' < length (pm_ranks (ly_mesh L))) by (rewrite Hlen; apply rank_lt; assumption).
      split; [apply nth_In, Hr |].
      unfold world_rank. rewrite index_of_nth by assumption. cbn [option_map]. fold m.
      unfold same_group. apply forallb_forall. intros a Ha. destruct (memb a ps) eqn:Hap; [reflexivity |].
      simpl. rewrite device_of_rank_rank by assumption.
      rewrite (members_agree m ps _ c c' Hc' a Hap). apply Nat.eqb_refl.
Qed.

(** What a rank's group combines to is Part 2's pending value. *)
Theorem one_cut_pending_value : forall M L ps (st : state (carrier M)) w l k, layout_wf L = true ->
  index_of w (pm_ranks (ly_mesh L)) = Some k ->
  hd_pending_value M (cuts_group (clayout_of_layout L) ps) st w l = pl_pending_value M L ps st w l.
Proof.
  intros M L ps st w l k HL Hk. unfold hd_pending_value, pl_pending_value. rewrite Hk.
  unfold group_sum. rewrite group_sum_members. fold (group_members (ly_m L) ps (device_of_rank (ly_m L) k)).
  rewrite <- (map_map (world_rank (ly_mesh L)) (fun w' => st w' l)).
  apply msum_perm, Permutation_map, cuts_group_members; assumption.
Qed.

(** A state holds Part 2's pending layout exactly when it holds the pending
    holding of the layout read as one cut per dimension. *)
Corollary one_cut_sholds : forall M L ps g (st : state (carrier M)), layout_wf L = true ->
  pl_sholds M L ps g st
  <-> hd_sholds M (clayout_holding (clayout_of_layout L)) (cuts_group (clayout_of_layout L) ps) g st.
Proof.
  intros M L ps g st HL. unfold pl_sholds, hd_sholds. rewrite pl_holds_holding.
  unfold hd_holds. split; intros H r s Hs l Hl.
  - destruct (one_cut_holding L r HL) as (E1 & _ & _ & E4).
    rewrite E1 in Hs. rewrite E4.
    cbn [hd_shape layout_holding] in Hs. unfold pl_shapes, pl_box in Hs.
    destruct (index_of r (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
    rewrite (one_cut_pending_value M L ps st r l k HL Hk). apply (H r s); [| exact Hl].
    cbn [hd_shape layout_holding]. unfold pl_shapes, pl_box. rewrite Hk. exact Hs.
  - destruct (one_cut_holding L r HL) as (E1 & _ & _ & E4).
    rewrite <- E1 in Hs. rewrite <- E4.
    cbn [hd_shape clayout_holding] in Hs. unfold cl_device, cl_m in Hs. cbn [cl_mesh clayout_of_layout] in Hs.
    destruct (index_of r (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
    rewrite <- (one_cut_pending_value M L ps st r l k HL Hk). apply (H r s); [| exact Hl].
    cbn [hd_shape clayout_holding]. unfold cl_device. cbn [cl_mesh clayout_of_layout]. rewrite Hk. exact Hs.
Qed.
