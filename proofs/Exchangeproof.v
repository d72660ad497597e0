(** * The direct exchange moves the right data and receives exactly what is missing.

    - [exchange_sound]: for any holder choice that returns holders, after the
      exchange every rank of the target mesh holds exactly its target box
      (ranks outside it hold nothing: they have no box).
    - [exchange_recv_exact]: when the choice also keeps what a rank holds,
      each rank receives exactly the elements of its target box that are not
      in its source box.
    - [spread_holder_ok]: the command's choice does both, on every pair of
      well-formed layouts of one global shape. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Semanticsproof Trafficproof Layout Layoutproof Exchange.

(** [h] names, for every index of a target box, a source rank whose box has it. *)
Definition returns_holders (S T : layout) (h : holder_choice) : Prop :=
  forall r b i, pl_box T r = Some b -> box_has b i = true -> has_opt (pl_box S (h r i)) i = true.

(** [h] keeps, on every rank, the elements its source box has. *)
Definition picks_self (S : layout) (h : holder_choice) : Prop :=
  forall r i, has_opt (pl_box S r) i = true -> h r i = r.

Theorem exchange_sound : forall S T h A (g : list nat -> A) (st : state A),
  returns_holders S T h -> pl_holds S g st -> pl_holds T g (exchange S T h st).
Proof.
  intros S T h A g st Hh Hst r b Hb l Hl.
  unfold exchange, run_wire, exchange_wire. rewrite Hb. cbn [fst snd].
  pose proof (Hh r b (box_global b l) Hb (box_global_has b l Hl)) as Hi.
  destruct (pl_box S (h r (box_global b l))) as [sb|] eqn:Hsb; [| discriminate].
  simpl in Hi. destruct (box_has_local sb _ Hi) as [H1 H2].
  rewrite (Hst _ sb Hsb _ H1), H2. reflexivity.
Qed.

Theorem exchange_recv_exact : forall S T h r,
  returns_holders S T h -> picks_self S h ->
  exchange_received S T h r = length (missing S T r).
Proof.
  intros S T h r Hh Hself.
  unfold exchange_received, wire_received, positions, pl_shapes, missing.
  destruct (pl_box T r) as [b|] eqn:Hb; [| reflexivity]. simpl.
  rewrite length_filter_map. f_equal. apply filter_ext_in. intros l Hl.
  apply in_box_indices in Hl. unfold exchange_wire. rewrite Hb. cbn [fst]. f_equal.
  destruct (has_opt (pl_box S r) (box_global b l)) eqn:E.
  - rewrite (Hself r _ E). apply Nat.eqb_refl.
  - apply Nat.eqb_neq. intros E'.
    pose proof (Hh r b (box_global b l) Hb (box_global_has b l Hl)) as Hi.
    rewrite E' in Hi. congruence.
Qed.

Theorem spread_holder_ok : forall S T, layouts_wf S T = true ->
  returns_holders S T (spread_holder S T) /\ picks_self S (spread_holder S T).
Proof.
  intros S T Hwf. split.
  - intros r b i Hb Hi. unfold spread_holder.
    destruct (has_opt (pl_box S r) i) eqn:E; [exact E |].
    destruct (covered S T r b i Hwf Hb Hi) as [s [Hs Hsi]].
    assert (Hin : In s (holders_of S i)) by (apply filter_In; auto).
    set (hs := holders_of S i) in *. set (k := match index_of r (needers_of S T i) with
                                               | Some k => k | None => 0 end).
    assert (Hlen : length hs <> 0) by (destruct hs; simpl in *; [contradiction | lia]).
    assert (Hn : In (nth (k mod length hs) hs r) hs)
      by (apply nth_In; apply Nat.mod_upper_bound; exact Hlen).
    apply filter_In in Hn. apply Hn.
  - intros r i H. unfold spread_holder. rewrite H. reflexivity.
Qed.

(** ** Holders are chosen per cell of blocks *)

Lemma dim_block_has : forall m d c x, 1 <= shards m d ->
  let '(lo, n) := dim_block m d c in
  (lo <=? x) && (x <? lo + n) = (x <? snd d) && (x / block_size m d =? radix m c (fst d)).
Proof.
  intros m d c x HP. unfold dim_block.
  pose proof (ceil_div_ge (snd d) (shards m d) HP) as Hc. unfold block_size in *.
  set (b := ceil_div (snd d) (shards m d)) in *. set (j := radix m c (fst d)).
  destruct (Nat.eq_dec b 0) as [E | Hb].
  - rewrite E in *. rewrite Nat.mul_0_r in Hc. rewrite !Nat.mul_0_r.
    replace (snd d) with 0 by lia. simpl. destruct (0 <=? x); reflexivity.
  - pose proof (Nat.div_mod x b Hb). pose proof (Nat.mod_upper_bound x b Hb).
    destruct (Nat.ltb_spec x (snd d)) as [Hx | Hx]; simpl.
    + destruct (Nat.eqb_spec (x / b) j) as [Ej | Ej].
      * rewrite andb_true_iff, Nat.leb_le, Nat.ltb_lt. nia.
      * apply andb_false_iff. destruct (Nat.le_gt_cases (x / b) j).
        -- left. apply Nat.leb_gt. nia.
        -- right. apply Nat.ltb_ge. nia.
    + apply andb_false_iff. right. apply Nat.ltb_ge. lia.
Qed.

Lemma box_has_by_key : forall m t c i j, (forall d, In d t -> 1 <= shards m d) ->
  in_shape i t -> in_shape j t -> block_key m t i = block_key m t j ->
  box_has (dev_box m t c) i = box_has (dev_box m t c) j.
Proof.
  intros m t c i j HP Hi. revert j. induction Hi as [| x d i t Hx Hi IH]; intros j Hj E;
    inversion Hj as [| y ? j' ? Hy Hj']; subst; [reflexivity |].
  simpl in E. inversion E as [[Exy Ekey]].
  change (dev_box m (d :: t) c) with (dim_block m d c :: dev_box m t c).
  assert (HPd : 1 <= shards m d) by (apply HP; left; reflexivity).
  pose proof (dim_block_has m d c x HPd) as Hdx. pose proof (dim_block_has m d c y HPd) as Hdy.
  destruct (dim_block m d c) as [lo n]. cbn [box_has].
  rewrite Hdx, Hdy, Exy, (IH (fun e He => HP e (or_intror He)) j' Hj' Ekey).
  apply Nat.ltb_lt in Hx. apply Nat.ltb_lt in Hy. rewrite Hx, Hy. reflexivity.
Qed.

Lemma has_opt_by_key : forall L w i j, layout_wf L = true ->
  in_shape i (ly_ty L) -> in_shape j (ly_ty L) ->
  block_key (ly_m L) (ly_ty L) i = block_key (ly_m L) (ly_ty L) j ->
  has_opt (pl_box L w) i = has_opt (pl_box L w) j.
Proof.
  intros L w i j Hwf Hi Hj E. unfold layout_wf, pmesh_wf in Hwf.
  rewrite !andb_true_iff in Hwf. destruct Hwf as [[[Hm _] _] Ht]. apply lty_wf_iff in Ht.
  unfold pl_box. destruct (index_of w (pm_ranks (ly_mesh L))); [| reflexivity].
  simpl. apply box_has_by_key; auto. intros d Hd. apply shards_pos; [exact Hm |].
  intros x Hx. apply Ht. eapply In_ty_axes; eassumption.
Qed.

(** Two indices of the array in the same source block and the same target
    block in every dimension get the same holder. *)
Theorem spread_holder_blockwise : forall S T r i j, layouts_wf S T = true ->
  in_shape i (ly_ty T) -> in_shape j (ly_ty T) ->
  block_key (ly_m S) (ly_ty S) i = block_key (ly_m S) (ly_ty S) j ->
  block_key (ly_m T) (ly_ty T) i = block_key (ly_m T) (ly_ty T) j ->
  spread_holder S T r i = spread_holder S T r j.
Proof.
  intros S T r i j Hwf Hi Hj ES ET.
  pose proof Hwf as H. unfold layouts_wf in H. rewrite !andb_true_iff, list_eqb_eq in H.
  destruct H as [[HS HT] Hg].
  assert (HiS : in_shape i (ly_ty S)) by (eapply in_shape_same_global; [symmetry; exact Hg | exact Hi]).
  assert (HjS : in_shape j (ly_ty S)) by (eapply in_shape_same_global; [symmetry; exact Hg | exact Hj]).
  assert (Hs : forall w, has_opt (pl_box S w) i = has_opt (pl_box S w) j)
    by (intros w; apply has_opt_by_key; assumption).
  assert (Ht : forall w, has_opt (pl_box T w) i = has_opt (pl_box T w) j)
    by (intros w; apply has_opt_by_key; assumption).
  unfold spread_holder, holders_of, needers_of. rewrite Hs.
  rewrite (filter_ext (fun s => has_opt (pl_box S s) i) (fun s => has_opt (pl_box S s) j))
    by (intros w; apply Hs).
  rewrite (filter_ext (fun r0 => has_opt (pl_box T r0) i && negb (has_opt (pl_box S r0) i))
                      (fun r0 => has_opt (pl_box T r0) j && negb (has_opt (pl_box S r0) j)))
    by (intros w; rewrite Hs, Ht; reflexivity).
  reflexivity.
Qed.
