(** * The traffic lower bound with pending sums.

    Steps of any kind that add: each position of a new local array is the
    sum of old positions ([sum_map]); what a rank receives is counted from
    the map, one element per contribution from another rank.  Partial sums
    may be combined on the way, as a ring reduce-scatter does.

    [sum_lower_bound]: any sequence of such steps that reads only existing
    elements and takes, for every commutative monoid, every state holding
    pending sums of the source layout to one holding the target layout makes
    rank [r] receive at least one element per target element whose value it
    cannot form from what it holds ([sum_needy]): the elements missing from
    its source box when its group has one member, every element of its
    target box otherwise.

    Argument: take the monoid of lists of numbers under lexicographic
    maximum, in which a sum is one of its terms or empty; give every global
    index its own label, held by one member of each group, not [r] when the
    group has other members; every label [r] ends with then arrived at some
    step, and distinct labels are distinct arrivals. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Steps Model Semantics Radix Trafficproof Layout Layoutproof Exchange
  Exchangeproof Sums Sumsproof Sumexchange.

(** ** Steps with sums *)

(** [sm r l]: the old (rank, local index) pairs added into local index [l] of rank [r]. *)
Definition sum_map : Type := nat -> list nat -> list (nat * list nat).

Definition run_sum_map (M : cmonoid) (sm : sum_map) (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (fst src) (snd src)) (sm r l)).

Definition sum_moves : Type := list (sum_map * shapes).

Fixpoint run_sum_moves (M : cmonoid) (ms : sum_moves) (st : state (carrier M)) : state (carrier M) :=
  match ms with
  | [] => st
  | (sm, _) :: ms' => run_sum_moves M ms' (run_sum_map M sm st)
  end.

(** A step adds, into every position of a new local array, only elements that exist. *)
Definition valid_sum_map (sh sh' : shapes) (sm : sum_map) : Prop :=
  forall r s', sh' r = Some s' -> forall l, in_box s' l ->
  forall src, In src (sm r l) -> exists s, sh (fst src) = Some s /\ in_box s (snd src).

Notation sum_moves_valid := (steps_valid valid_sum_map).
Notation sum_final_shapes := (@steps_final sum_map shapes).

(** The contributions to [r]'s new array that come from other ranks. *)
Definition foreign_sources (sm : sum_map) (sh' : shapes) (r : nat) : list (nat * list nat) :=
  filter (fun src => negb (fst src =? r)) (flat_map (sm r) (positions sh' r)).

Fixpoint sum_moves_received (ms : sum_moves) (r : nat) : nat :=
  match ms with
  | [] => 0
  | (sm, sh') :: ms' => length (foreign_sources sm sh' r) + sum_moves_received ms' r
  end.

(** The target elements rank [r] cannot form from what it holds. *)
Definition sum_needy (S : layout) (ps : list axis) (T : layout) (r : nat) : list (list nat) :=
  match pl_box T r with
  | Some b =>
      if group_size (ly_m S) ps =? 1 then missing S T r
      else map (box_global b) (box_indices (box_shape b))
  | None => []
  end.

(** ** Lists of numbers under lexicographic maximum *)

Fixpoint lex_leb (a b : list nat) : bool :=
  match a, b with
  | [], _ => true
  | _ :: _, [] => false
  | x :: a', y :: b' => (x <? y) || ((x =? y) && lex_leb a' b')
  end.

Lemma lex_leb_total : forall a b, lex_leb a b = false -> lex_leb b a = true.
Proof.
  induction a as [|x a IH]; intros [|y b] H; simpl in *; auto; try discriminate.
  destruct (Nat.ltb_spec x y); simpl in H; [discriminate |].
  destruct (Nat.eqb_spec x y) as [-> | Hne]; simpl in H.
  - rewrite Nat.ltb_irrefl, Nat.eqb_refl. simpl. apply IH. exact H.
  - apply orb_true_iff. left. apply Nat.ltb_lt. lia.
Qed.

Lemma lex_leb_antisym : forall a b, lex_leb a b = true -> lex_leb b a = true -> a = b.
Proof.
  induction a as [|x a IH]; intros [|y b] H1 H2; simpl in *; auto; try discriminate.
  apply orb_true_iff in H1, H2.
  destruct H1 as [H1 | H1]; destruct H2 as [H2 | H2];
    rewrite ?Nat.ltb_lt in *; rewrite ?andb_true_iff, ?Nat.eqb_eq in *; try lia.
  - destruct H1 as [-> H1]. destruct H2 as [_ H2]. f_equal. apply IH; assumption.
Qed.

Lemma lex_leb_trans : forall a b c, lex_leb a b = true -> lex_leb b c = true -> lex_leb a c = true.
Proof.
  induction a as [|x a IH]; intros [|y b] [|z c] H1 H2; simpl in *; auto; try discriminate.
  apply orb_true_iff in H1, H2. apply orb_true_iff.
  destruct H1 as [H1 | H1]; destruct H2 as [H2 | H2];
    rewrite ?Nat.ltb_lt in *; rewrite ?andb_true_iff, ?Nat.eqb_eq in *.
  - left. lia.
  - left. lia.
  - left. lia.
  - right. split; [lia |]. apply (IH b); [apply H1 | apply H2].
Qed.

Definition lex_max (a b : list nat) : list nat := if lex_leb a b then b else a.

Lemma lex_max_assoc : forall a b c, lex_max a (lex_max b c) = lex_max (lex_max a b) c.
Proof.
  intros a b c. unfold lex_max.
  destruct (lex_leb b c) eqn:Hbc; destruct (lex_leb a b) eqn:Hab; rewrite ?Hab, ?Hbc.
  - rewrite (lex_leb_trans a b c Hab Hbc). reflexivity.
  - reflexivity.
  - reflexivity.
  - destruct (lex_leb a c) eqn:Hac; [| reflexivity].
    pose proof (lex_leb_trans a c b Hac (lex_leb_total b c Hbc)). congruence.
Qed.

Lemma lex_max_comm : forall a b, lex_max a b = lex_max b a.
Proof.
  intros a b. unfold lex_max. destruct (lex_leb a b) eqn:Hab; destruct (lex_leb b a) eqn:Hba.
  - apply lex_leb_antisym; assumption.
  - reflexivity.
  - reflexivity.
  - apply lex_leb_total in Hab. congruence.
Qed.

Lemma lex_max_nil_l : forall a, lex_max [] a = a.
Proof. reflexivity. Qed.

Definition lexmax : cmonoid := {|
  carrier := list nat; zero := []; add := lex_max;
  add_assoc := lex_max_assoc; add_comm := lex_max_comm; add_zero_l := lex_max_nil_l |}.

(** A sum under [lex_max] is empty or one of its terms. *)
Lemma lexmax_selective : forall xs, msum lexmax xs = [] \/ In (msum lexmax xs) xs.
Proof.
  induction xs as [|x xs IH]; [left; reflexivity |].
  rewrite msum_cons. simpl add. unfold lex_max.
  destruct (lex_leb x (msum lexmax xs)); [| right; left; reflexivity].
  destruct IH as [IH | IH]; [left; exact IH | right; right; exact IH].
Qed.

(** ** Following values back *)

(** The values [r] receives, step by step, as they were before each step. *)
Fixpoint sum_arrivals (ms : sum_moves) (st : state (list nat)) (r : nat) : list (list nat) :=
  match ms with
  | [] => []
  | (sm, sh') :: ms' =>
      map (fun src => st (fst src) (snd src)) (foreign_sources sm sh' r)
      ++ sum_arrivals ms' (run_sum_map lexmax sm st) r
  end.

Lemma sum_arrivals_length : forall ms st r, length (sum_arrivals ms st r) = sum_moves_received ms r.
Proof.
  induction ms as [|[sm sh'] ms IH]; intros st r; simpl; [reflexivity |].
  rewrite app_length, map_length, IH. reflexivity.
Qed.

(** Every value in [r]'s final array is empty, was in [r]'s array at the
    start, or is one of its arrivals. *)
Lemma sum_trace_back : forall ms sh (st : state (list nat)) (inv : list (list nat)) r,
  sum_moves_valid sh ms ->
  (forall s l, sh r = Some s -> in_box s l -> st r l = [] \/ In (st r l) inv) ->
  forall s l, sum_final_shapes sh ms r = Some s -> in_box s l ->
  run_sum_moves lexmax ms st r l = [] \/ In (run_sum_moves lexmax ms st r l) (inv ++ sum_arrivals ms st r).
Proof.
  induction ms as [|[sm sh'] ms IH]; intros sh st inv r Hv Hinv s l Hs Hl; simpl in *.
  - rewrite app_nil_r. eapply Hinv; eassumption.
  - destruct Hv as [Hsm Hv]. rewrite app_assoc. eapply IH; [exact Hv | | exact Hs | exact Hl].
    clear s l Hs Hl. intros s l Hs Hl.
    destruct (lexmax_selective (map (fun src => st (fst src) (snd src)) (sm r l))) as [E | E];
      [left; exact E |].
    apply in_map_iff in E. destruct E as [src [E Hsrc]].
    assert (Hval : run_sum_map lexmax sm st r l = st (fst src) (snd src)) by (symmetry; exact E).
    rewrite Hval.
    destruct (Nat.eqb_spec (fst src) r) as [Er | Er].
    + destruct (Hsm r s Hs l Hl src Hsrc) as [s0 [Hs0 Hl0]]. rewrite Er in *.
      destruct (Hinv s0 (snd src) Hs0 Hl0) as [H | H]; [left; exact H | right; apply in_or_app; left; exact H].
    + right. apply in_or_app. right. apply (in_map (fun src => st (fst src) (snd src))).
      unfold foreign_sources. apply filter_In. split.
      * apply in_flat_map. exists l. split; [| exact Hsrc].
        unfold positions. rewrite Hs. apply in_box_indices. exact Hl.
      * apply Nat.eqb_neq in Er. rewrite Er. reflexivity.
Qed.

(** ** A state that labels every element once per group *)

Definition label (i : list nat) : list nat := 0 :: i.

(** The pending coordinates of the group member that holds the labels: all
    0, or all at their last value when [r]'s are all 0, so that [r] holds
    them only when its group has one member. *)
Definition label_holder_coords (S : layout) (ps : list axis) (r : nat) : axis -> nat :=
  let r_at_zero := match index_of r (pm_ranks (ly_mesh S)) with
                   | Some k => forallb (fun a => device_of_rank (ly_m S) k a =? 0) ps
                   | None => true
                   end in
  fun a => if r_at_zero then axis_size (ly_m S) a - 1 else 0.

Definition holds_label (S : layout) (ps : list axis) (r : nat) (c : device) : bool :=
  forallb (fun a => c a =? label_holder_coords S ps r a) ps.

Definition label_state (S : layout) (ps : list axis) (r : nat) : state (list nat) :=
  fun w l =>
    match index_of w (pm_ranks (ly_mesh S)) with
    | Some k =>
        let c := device_of_rank (ly_m S) k in
        if holds_label S ps r c then label (box_global (dev_box (ly_m S) (ly_ty S) c) l) else []
    | None => []
    end.

(** Every group sums, under [lex_max], to the label of the index. *)
Lemma label_state_sholds : forall S ps r, pl_pending_wf S ps = true ->
  pl_sholds lexmax S ps label (label_state S ps r).
Proof.
  intros S ps r Hw.
  destruct (pl_pending_wf_parts S ps Hw) as [HL _].
  destruct (layout_parts S HL) as [Hm [_ [_ Htm]]].
  apply (one_holder_sholds lexmax S ps (label_holder_coords S ps r)); [exact Hw | |].
  - intros a Ha. unfold label_holder_coords.
    pose proof (mesh_wf_size_pos _ a Hm (pending_in_mesh S ps a Hw Ha)).
    match goal with |- (if ?b then _ else _) < _ => destruct b end; lia.
  - intros c l Hc Hl. unfold label_state. rewrite (world_rank_index S c HL Hc).
    assert (Hh : holds_label S ps r (device_of_rank (ly_m S) (rank (ly_m S) c))
                 = forallb (fun a => c a =? label_holder_coords S ps r a) ps).
    { unfold holds_label. apply forallb_ext_in. intros a Ha.
      rewrite device_of_rank_rank; [reflexivity | exact Hm | exact Hc |].
      apply (pending_in_mesh S ps a Hw), memb_In, Ha. }
    rewrite Hh. destruct (forallb _ ps); [| reflexivity].
    f_equal. f_equal. apply dev_box_ext. intros x Hx.
    apply device_of_rank_rank; [exact Hm | exact Hc | apply Htm, Hx].
Qed.

Lemma prod_ones : forall m xs, (forall x, In x xs -> axis_size m x = 1) -> prod (map (axis_size m) xs) = 1.
Proof.
  intros m xs H. induction xs as [|x xs IH]; [reflexivity |]. simpl.
  rewrite H by (left; reflexivity). rewrite IH by (intros y Hy; apply H; right; exact Hy). lia.
Qed.

(** [r] holds the labels only when its group has one member. *)
Lemma holds_label_group_one : forall S ps r k, pl_pending_wf S ps = true ->
  index_of r (pm_ranks (ly_mesh S)) = Some k ->
  holds_label S ps r (device_of_rank (ly_m S) k) = true -> group_size (ly_m S) ps = 1.
Proof.
  intros S ps r k Hw Hk Hh.
  destruct (pl_pending_wf_parts S ps Hw) as [HL _].
  destruct (layout_parts S HL) as [Hm _].
  unfold group_size. apply prod_ones. intros a Ha. apply filter_In in Ha. destruct Ha as [Ham Hap].
  pose proof (mesh_wf_size_pos _ a Hm Ham) as Hpos.
  unfold holds_label, label_holder_coords in Hh. rewrite Hk in Hh.
  rewrite forallb_forall in Hh.
  destruct (forallb (fun a => device_of_rank (ly_m S) k a =? 0) ps) eqn:Hz.
  - rewrite forallb_forall in Hz. apply memb_In in Hap.
    specialize (Hh a Hap). specialize (Hz a Hap). apply Nat.eqb_eq in Hh, Hz. lia.
  - exfalso. apply not_true_iff_false in Hz. apply Hz. apply forallb_forall. intros a' Ha'.
    specialize (Hh a' Ha'). exact Hh.
Qed.

(** ** The bound *)

Theorem sum_lower_bound : forall S ps T sh0 ms r,
  pl_pending_wf S ps = true ->
  sum_moves_valid sh0 ms -> sh0 r = pl_shapes S r -> sum_final_shapes sh0 ms r = pl_shapes T r ->
  (forall M (g : list nat -> carrier M) (st : state (carrier M)),
     pl_sholds M S ps g st -> pl_holds T g (run_sum_moves M ms st)) ->
  length (sum_needy S ps T r) <= sum_moves_received ms r.
Proof.
  intros S ps T sh0 ms r Hw Hv H0 Hfin Hcorrect.
  set (st0 := label_state S ps r).
  pose proof (Hcorrect lexmax label st0 (label_state_sholds S ps r Hw)) as Hend.
  unfold sum_needy. destruct (pl_box T r) as [b|] eqn:Hb; [| simpl; lia].
  set (desig := match index_of r (pm_ranks (ly_mesh S)) with
                | Some k => holds_label S ps r (device_of_rank (ly_m S) k)
                | None => false
                end).
  set (inv := if desig then match pl_box S r with
                            | Some sb => map label (map (box_global sb) (box_indices (box_shape sb)))
                            | None => []
                            end
              else []).
  assert (Hinv : forall s l, sh0 r = Some s -> in_box s l -> st0 r l = [] \/ In (st0 r l) inv).
  { intros s l Hs Hl. rewrite H0 in Hs. unfold pl_shapes, pl_box in Hs. unfold st0, label_state, inv, desig.
    unfold pl_box. destruct (index_of r (pm_ranks (ly_mesh S))) as [k|]; [| discriminate].
    simpl in Hs. injection Hs as Hs. subst s.
    destruct (holds_label S ps r (device_of_rank (ly_m S) k)); [right | left; reflexivity].
    apply in_map, in_map, in_box_indices. exact Hl. }
  set (needy := if group_size (ly_m S) ps =? 1 then missing S T r
                else map (box_global b) (box_indices (box_shape b))).
  assert (Hsub : forall i, In i needy -> exists l, in_box (box_shape b) l /\ i = box_global b l).
  { intros i Hi. unfold needy in Hi. destruct (group_size (ly_m S) ps =? 1).
    - unfold missing in Hi. rewrite Hb in Hi. apply filter_In in Hi. destruct Hi as [Hi _].
      apply in_map_iff in Hi. destruct Hi as [l [<- Hl]]. exists l. split; [apply in_box_indices; exact Hl | reflexivity].
    - apply in_map_iff in Hi. destruct Hi as [l [<- Hl]]. exists l. split; [apply in_box_indices; exact Hl | reflexivity]. }
  rewrite <- (sum_arrivals_length ms st0 r).
  rewrite <- (map_length label needy).
  apply NoDup_incl_length.
  - apply NoDup_map_in; [intros x y _ _ E; injection E; auto |].
    unfold needy. destruct (group_size (ly_m S) ps =? 1).
    + unfold missing. rewrite Hb. apply NoDup_filter. apply NoDup_box_globals.
    + apply NoDup_box_globals.
  - intros x Hx. apply in_map_iff in Hx. destruct Hx as [i [<- Hi]].
    destruct (Hsub i Hi) as [l [Hl ->]].
    assert (Hfin' : sum_final_shapes sh0 ms r = Some (box_shape b))
      by (rewrite Hfin; unfold pl_shapes; rewrite Hb; reflexivity).
    destruct (sum_trace_back ms sh0 st0 inv r Hv Hinv _ l Hfin' Hl) as [E | E];
      rewrite (Hend r b Hb l Hl) in E; [discriminate |].
    apply in_app_or in E. destruct E as [E | E]; [exfalso | exact E].
    unfold inv in E. destruct desig eqn:Hd; [| destruct E].
    unfold desig in Hd. destruct (index_of r (pm_ranks (ly_mesh S))) as [k|] eqn:Hk; [| discriminate].
    pose proof (holds_label_group_one S ps r k Hw Hk Hd) as HG.
    unfold needy in Hi. rewrite HG in Hi. simpl in Hi.
    unfold missing in Hi. rewrite Hb in Hi. apply filter_In in Hi. destruct Hi as [_ Hi].
    destruct (pl_box S r) as [sb|] eqn:Hsb; [| destruct E].
    rewrite map_map in E. apply in_map_iff in E. destruct E as [l' [E Hl']].
    injection E as E. apply in_box_indices in Hl'.
    simpl in Hi. rewrite <- E, box_global_has in Hi by exact Hl'. discriminate.
Qed.

(** ** The reducing exchange is such a step *)

Lemma reducing_exchange_valid : forall S ps T h, pl_pending_wf S ps = true -> returns_holders S T h ->
  valid_sum_map (pl_shapes S) (pl_shapes T) (reducing_sources S ps T h).
Proof.
  intros S ps T h Hw Hh r s' Hs' l Hl src Hsrc.
  destruct (pl_pending_wf_parts S ps Hw) as [HL Hps].
  destruct (layout_parts S HL) as [Hm [Hlen [Hnd Htm]]].
  unfold pl_shapes in Hs'. destruct (pl_box T r) as [b|] eqn:Hb; [| discriminate].
  injection Hs' as Hs'. subst s'.
  set (i := box_global b l).
  pose proof (Hh r b i Hb (box_global_has b l Hl)) as Hi.
  unfold reducing_sources in Hsrc. rewrite Hb in Hsrc. fold i in Hsrc.
  unfold pl_box in Hi. destruct (index_of (h r i) (pm_ranks (ly_mesh S))) as [k|] eqn:Hk;
    [| discriminate].
  simpl in Hi. destruct (index_of_Some _ _ _ Hk) as [Hkl _].
  set (c := device_of_rank (ly_m S) k) in *.
  assert (Hc : device_in (ly_m S) c) by (apply device_of_rank_in; [exact Hm | lia]).
  apply in_map_iff in Hsrc. destruct Hsrc as [c' [<- Hc']]. simpl.
  assert (Hc'in : device_in (ly_m S) c') by (apply (members_in _ _ _ _ _ Hc Hc')).
  assert (Hrk : rank (ly_m S) c' < length (pm_ranks (ly_mesh S)))
    by (rewrite Hlen; apply rank_lt; assumption).
  assert (Hbox : dev_box (ly_m S) (ly_ty S) c' = dev_box (ly_m S) (ly_ty S) c).
  { apply dev_box_ext. intros x Hx. apply (members_agree _ _ _ _ _ Hc').
    destruct (memb x ps) eqn:Hxp; [| reflexivity]. exfalso. exact (Hps x Hxp Hx). }
  exists (box_shape (dev_box (ly_m S) (ly_ty S) c)). split.
  - unfold pl_shapes, pl_box, world_rank. rewrite index_of_nth by assumption. simpl.
    rewrite <- Hbox. f_equal. f_equal. apply dev_box_ext. intros x Hx.
    apply device_of_rank_rank; [exact Hm | exact Hc'in | apply Htm; exact Hx].
  - rewrite Hbox. apply box_has_local. exact Hi.
Qed.

(** No holder choice makes the reducing exchange receive less than the bound. *)
Theorem reducing_exchange_recv_ge : forall S ps T h r,
  pl_pending_wf S ps = true -> returns_holders S T h ->
  length (sum_needy S ps T r) <= reducing_received S ps T h r.
Proof.
  intros S ps T h r Hw Hh.
  pose proof (sum_lower_bound S ps T (pl_shapes S) [(reducing_sources S ps T h, pl_shapes T)] r Hw)
    as H.
  simpl in H. unfold reducing_received.
  replace (length (filter _ _)) with (length (foreign_sources (reducing_sources S ps T h) (pl_shapes T) r) + 0)
    by (rewrite Nat.add_0_r; reflexivity).
  apply H.
  - split; [apply reducing_exchange_valid; assumption | exact I].
  - reflexivity.
  - reflexivity.
  - intros M g st Hst. apply (reducing_exchange_sound M S ps T h g st Hw Hh Hst).
Qed.
