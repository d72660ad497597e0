(** * The region messages of [Lowercuts.v] are the exchange's data movement.

    - [region_messages_match]: the boxes rank [r] sends to [p] have, in
      order, the extents of the boxes [p] receives from [r].
    - [region_exchange_sound]: executing the messages ([region_run]) leaves
      every rank of the target layout with its target holding of the array.
    - [region_one_cut_sound]: on layouts of one ceil-block cut per
      dimension (Part 2's), the messages leave every rank with Part 2's
      target box, what Part 2's exchange leaves.

    The steps: a global interval inside one held interval is a run of
    consecutive local indices ([interval_run]); so a cell, read in both
    local arrays, maps a target position to the source position of the
    same element ([cell_moves]); every needed element is in a cell of the
    rank itself or of a leading replica that holds it ([cell_covers],
    [lead_exists]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Layout Layoutproof Cuts Cutsproof Holding Lowercuts.

(** ** Held intervals are runs of local indices *)

Lemma nth_intervals_elems : forall pre a n post s, s < n ->
  nth (length (intervals_elems pre) + s) (intervals_elems (pre ++ (a, n) :: post)) 0 = a + s.
Proof.
  intros pre a n post s Hs. unfold intervals_elems. rewrite flat_map_app. simpl.
  rewrite app_nth2 by lia. rewrite Nat.add_comm, Nat.add_sub. rewrite app_nth1 by (rewrite seq_length; lia).
  rewrite seq_nth by exact Hs. lia.
Qed.

Lemma length_intervals_elems : forall pre a n post,
  length (intervals_elems (pre ++ (a, n) :: post)) = length (intervals_elems pre) + n + length (intervals_elems post).
Proof.
  intros. unfold intervals_elems. rewrite flat_map_app, app_length. simpl. rewrite app_length, seq_length. lia.
Qed.

Theorem interval_run : forall m ks E c a n s, chunks_ok m ks c ->
  In (a, n) (dim_intervals m ks E c) -> s < n ->
  dim_owns m ks E c (a + s) = true /\ dim_local m ks E c (a + s) = dim_local m ks E c a + s.
Proof.
  intros m ks E c a n s Hok Hin Hs.
  apply in_split in Hin. destruct Hin as (pre & post & Hsplit).
  pose proof (dim_intervals_exact m ks E c Hok) as Hex. rewrite Hsplit in Hex.
  set (q := length (intervals_elems pre)).
  assert (Hat : forall s', s' < n -> q + s' < dim_extent m ks E c /\ dim_global m ks E c (q + s') = a + s').
  { intros s' Hs'. pose proof (f_equal (@length nat) Hex) as Hl.
    rewrite length_intervals_elems, map_length, seq_length in Hl. split; [lia |].
    pose proof (f_equal (fun xs => nth (q + s') xs 0) Hex) as Hn. cbv beta in Hn. unfold q in Hn.
    rewrite nth_intervals_elems in Hn by exact Hs'. fold q in Hn.
    rewrite nth_indep with (d' := dim_global m ks E c 0) in Hn by (rewrite map_length, seq_length; lia).
    rewrite map_nth, seq_nth in Hn by lia. simpl in Hn. lia. }
  destruct (Hat s Hs) as [H1 H2]. destruct (Hat 0 ltac:(lia)) as [H3 H4].
  destruct (dim_global_owned m ks E c _ Hok H1) as [G1 G2].
  destruct (dim_global_owned m ks E c _ Hok H3) as [_ G4].
  rewrite H2 in G1, G2. rewrite H4, Nat.add_0_r in G4. rewrite Nat.add_0_r in G4.
  split; [exact G1 |]. rewrite G2, G4. reflexivity.
Qed.

(** An owned index is in one of the device's intervals. *)
Lemma owned_in_interval : forall m ks E c x, chunks_ok m ks c -> dim_owns m ks E c x = true ->
  exists a n, In (a, n) (dim_intervals m ks E c) /\ a <= x < a + n.
Proof.
  intros m ks E c x Hok H. apply (dim_intervals_owned m ks E c x Hok) in H.
  unfold intervals_elems in H. apply in_flat_map in H. destruct H as ([a n] & Hin & Hx).
  apply in_seq in Hx. exists a, n. split; [exact Hin | simpl in Hx; lia].
Qed.

(** ** A cell, read in both local arrays *)

Lemma in_ivs_meet : forall xs ys iv, In iv (ivs_meet xs ys) ->
  exists a b, In a xs /\ In b ys /\ iv = iv_meet a b /\ snd iv <> 0.
Proof.
  intros xs ys iv H. unfold ivs_meet in H. apply filter_In in H. destruct H as [H Hn].
  apply in_flat_map in H. destruct H as (a & Ha & H). apply in_map_iff in H. destruct H as (b & <- & Hb).
  exists a, b. repeat split; try assumption. apply negb_true_iff, Nat.eqb_neq in Hn. exact Hn.
Qed.

Lemma ivs_meet_in : forall xs ys a b, In a xs -> In b ys -> snd (iv_meet a b) <> 0 -> In (iv_meet a b) (ivs_meet xs ys).
Proof.
  intros xs ys a b Ha Hb Hn. unfold ivs_meet. apply filter_In. split.
  - apply in_flat_map. exists a. split; [exact Ha | apply in_map; exact Hb].
  - apply negb_true_iff, Nat.eqb_neq. exact Hn.
Qed.

(** One dimension of a cell: target local [y] inside the cell's target box is
    the element [x] the source holds, at the shifted source local index. *)
Lemma dim_cell_moves : forall mS ksS mT ksT E cs ct aS nS aT nT y,
  chunks_ok mS ksS cs -> chunks_ok mT ksT ct ->
  In (aS, nS) (dim_intervals mS ksS E cs) -> In (aT, nT) (dim_intervals mT ksT E ct) ->
  let iv := iv_meet (aS, nS) (aT, nT) in
  dim_local mT ksT E ct (fst iv) <= y < dim_local mT ksT E ct (fst iv) + snd iv ->
  dim_owns mS ksS E cs (dim_global mT ksT E ct y) = true
  /\ dim_local mS ksS E cs (fst iv) + (y - dim_local mT ksT E ct (fst iv))
     = dim_local mS ksS E cs (dim_global mT ksT E ct y).
Proof.
  intros mS ksS mT ksT E cs ct aS nS aT nT y HS HT InS InT iv Hy. unfold iv, iv_meet in *. simpl in *.
  set (a := Nat.max aS aT) in *. set (n := Nat.min (aS + nS) (aT + nT) - a) in *.
  assert (Hn : n <> 0) by lia.
  destruct (interval_run mT ksT E ct aT nT (a - aT) HT InT ltac:(lia)) as [_ Ta].
  replace (aT + (a - aT)) with a in Ta by lia.
  set (t := y - dim_local mT ksT E ct a).
  destruct (interval_run mT ksT E ct aT nT (a - aT + t) HT InT ltac:(lia)) as [Tx1 Tx2].
  assert (Hx : dim_global mT ksT E ct y = a + t).
  { assert (Hy' : y = dim_local mT ksT E ct (aT + (a - aT + t))) by (rewrite Tx2; unfold t; lia).
    rewrite Hy'. rewrite (proj2 (dim_local_of_owned mT ksT E ct _ HT Tx1)). lia. }
  rewrite Hx.
  destruct (interval_run mS ksS E cs aS nS (a - aS + t) HS InS ltac:(lia)) as [Sx1 Sx2].
  destruct (interval_run mS ksS E cs aS nS (a - aS) HS InS ltac:(lia)) as [_ Sa].
  replace (aS + (a - aS + t)) with (a + t) in Sx1, Sx2 by lia.
  replace (aS + (a - aS)) with a in Sa by lia.
  split; [exact Sx1 |]. rewrite Sx2, Sa. lia.
Qed.

Lemma in_product_boxes : forall d ds b, In b (product_boxes (d :: ds)) ->
  exists iv b', b = iv :: b' /\ In iv d /\ In b' (product_boxes ds).
Proof.
  intros d ds b H. simpl in H. apply in_flat_map in H. destruct H as (iv & Hiv & H).
  apply in_map_iff in H. destruct H as (b' & <- & Hb'). exists iv, b'. auto.
Qed.

Section Cells.
Variables mS mT : mesh.

Theorem cell_moves : forall tS tT cs ct b l,
  cty_chunks_ok mS tS cs -> cty_chunks_ok mT tT ct -> map snd tS = map snd tT ->
  In b (product_boxes (meet_dims (c_intervals mS tS cs) (c_intervals mT tT ct))) ->
  in_lbox (localize mT tT ct b) l = true ->
  c_has mS tS cs (c_global mT tT ct l) = true
  /\ shift (localize mT tT ct b) (localize mS tS cs b) l = c_local mS tS cs (c_global mT tT ct l).
Proof.
  induction tS as [|dS tS IH]; intros [|dT tT] cs ct b l HS HT Hg Hb Hl; try discriminate.
  - simpl in Hb. destruct Hb as [<- | []]. destruct l; [split; reflexivity | discriminate].
  - simpl in Hg. injection Hg as HE Hg.
    apply in_product_boxes in Hb. destruct Hb as (iv & b' & -> & Hiv & Hb').
    destruct l as [|y l]; [simpl in Hl; discriminate |].
    apply cty_chunks_ok_cons in HS, HT. destruct HS as [HdS HS]. destruct HT as [HdT HT].
    destruct dS as [ksS E]. destruct dT as [ksT E']. simpl in HE. subst E'.
    simpl in Hl. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt in Hl.
    destruct Hl as [[Hy1 Hy2] Hl].
    destruct (IH tT cs ct b' l HS HT Hg Hb' Hl) as [H1 H2].
    destruct (in_ivs_meet _ _ _ Hiv) as ([aS nS] & [aT nT] & InS & InT & Hm & Hn).
    simpl in InS, InT. subst iv.
    destruct (dim_cell_moves mS ksS mT ksT E cs ct aS nS aT nT y HdS HdT InS InT) as [D1 D2];
      [simpl in *; split; assumption |].
    simpl. rewrite D1, H1. split; [reflexivity |]. rewrite H2. f_equal. exact D2.
Qed.

Theorem cell_covers : forall tS tT cs ct i,
  cty_chunks_ok mS tS cs -> cty_chunks_ok mT tT ct -> map snd tS = map snd tT ->
  c_has mS tS cs i = true -> c_has mT tT ct i = true ->
  exists b, In b (product_boxes (meet_dims (c_intervals mS tS cs) (c_intervals mT tT ct)))
       /\ in_lbox (localize mT tT ct b) (c_local mT tT ct i) = true.
Proof.
  induction tS as [|dS tS IH]; intros [|dT tT] cs ct i HS HT Hg HhS HhT; try discriminate.
  - exists []. destruct i; [split; [left; reflexivity | reflexivity] | discriminate].
  - simpl in Hg. injection Hg as HE Hg.
    destruct i as [|x i]; [discriminate |]. simpl in HhS, HhT.
    rewrite andb_true_iff in HhS, HhT. destruct HhS as [HxS HhS]. destruct HhT as [HxT HhT].
    apply cty_chunks_ok_cons in HS, HT. destruct HS as [HdS HS]. destruct HT as [HdT HT].
    destruct dS as [ksS E]. destruct dT as [ksT E']. simpl in HE. subst E'. simpl in *.
    destruct (IH tT cs ct i HS HT Hg HhS HhT) as (b' & Hb' & Hl).
    destruct (owned_in_interval _ _ _ _ _ HdS HxS) as (aS & nS & InS & XS).
    destruct (owned_in_interval _ _ _ _ _ HdT HxT) as (aT & nT & InT & XT).
    set (iv := iv_meet (aS, nS) (aT, nT)).
    assert (Hn : snd iv <> 0) by (unfold iv, iv_meet; simpl; lia).
    exists (iv :: b'). split.
    + apply in_flat_map. exists iv. split; [apply ivs_meet_in; assumption | apply in_map; exact Hb'].
    + simpl. rewrite Hl, andb_true_r. unfold iv, iv_meet. simpl.
      set (a := Nat.max aS aT). set (n := Nat.min (aS + nS) (aT + nT) - a).
      destruct (interval_run mT ksT E ct aT nT (a - aT) HdT InT ltac:(unfold a, n in *; simpl in Hn; lia)) as [_ Ta].
      destruct (interval_run mT ksT E ct aT nT (x - aT) HdT InT ltac:(lia)) as [_ Tx].
      replace (aT + (a - aT)) with a in Ta by lia. replace (aT + (x - aT)) with x in Tx by lia.
      rewrite Ta, Tx. apply andb_true_iff. rewrite Nat.leb_le, Nat.ltb_lt.
      unfold iv, iv_meet, a, n in *; simpl in Hn; lia.
Qed.

End Cells.

(** ** Sends and receives pair up *)

Lemma peer_boxes_messages : forall (f : nat -> bool) (g : nat -> list lbox) qs p,
  peer_boxes (flat_map (fun q => if f q then message q (g q) else []) qs) p
  = if f p && memb p qs then g p else [].
Proof.
  intros f g qs p. induction qs as [|q qs IH]; cbn [flat_map memb existsb].
  - rewrite andb_false_r. reflexivity.
  - destruct (Nat.eqb_spec p q) as [-> | Hpq]; cbn [orb].
    + rewrite andb_true_r. destruct (f q) eqn:Ef.
      * destruct (g q) as [|b bs] eqn:Eg; simpl.
        -- rewrite IH, ?Ef, ?Eg. destruct (_ && _); reflexivity.
        -- rewrite Nat.eqb_refl. reflexivity.
      * simpl. rewrite IH, ?Ef. reflexivity.
    + destruct (f q); [destruct (g q) as [|b bs] |]; simpl; try exact IH.
      destruct (Nat.eqb_spec q p); [congruence | exact IH].
Qed.

Lemma localize_extents : forall m t c b, length b <= length t -> map snd (localize m t c b) = map snd b.
Proof.
  intros m t c b. revert t. induction b as [|iv b IH]; intros [|d t] H; simpl in *; try lia; try reflexivity.
  rewrite IH by lia. reflexivity.
Qed.

Lemma product_boxes_length : forall ds b, In b (product_boxes ds) -> length b = length ds.
Proof.
  induction ds as [|d ds IH]; intros b H; [destruct H as [<- | []]; reflexivity |].
  apply in_product_boxes in H. destruct H as (iv & b' & -> & _ & H). simpl. rewrite (IH _ H). reflexivity.
Qed.

Lemma cell_length : forall S T cs ct b, map snd (cl_ty S) = map snd (cl_ty T) ->
  In b (device_cells S T cs ct) -> length b = length (cl_ty S) /\ length b = length (cl_ty T).
Proof.
  intros S T cs ct b Hg H. apply product_boxes_length in H. unfold meet_dims, c_intervals in H.
  rewrite map_length, combine_length, !map_length in H.
  pose proof (f_equal (@length nat) Hg) as Hl. rewrite !map_length in Hl. rewrite Hl, Nat.min_id in H. unfold cty, cdim in *. split; [rewrite H; symmetry; exact Hl | exact H].
Qed.

Lemma cl_device_memb : forall L w c, cl_device L w = Some c -> memb w (pm_ranks (cl_mesh L)) = true.
Proof.
  intros L w c H. unfold cl_device in H. destruct (index_of w (pm_ranks (cl_mesh L))) as [k|] eqn:Hk; [| discriminate].
  apply index_of_Some in Hk. destruct Hk as [Hk <-]. apply existsb_exists. exists (nth k (pm_ranks (cl_mesh L)) 0).
  split; [apply nth_In; exact Hk | apply Nat.eqb_refl].
Qed.

(** The [k]-th box rank [r] sends to [p] has the extents of the [k]-th box [p] receives from [r]. *)
Theorem region_messages_match : forall S T r p, map snd (cl_ty S) = map snd (cl_ty T) ->
  map (map snd) (peer_boxes (region_sends S T r) p) = map (map snd) (peer_boxes (region_recvs S T p) r).
Proof.
  intros S T r p Hg. unfold region_sends, region_recvs. rewrite !peer_boxes_messages.
  unfold region_cells. destruct (cl_device S r) as [cs|] eqn:Hs; [| destruct (_ && _), (_ && _); reflexivity].
  destruct (cl_device T p) as [ct|] eqn:Ht; [| destruct (_ && _), (_ && _); reflexivity].
  rewrite (cl_device_memb _ _ _ Hs), (cl_device_memb _ _ _ Ht), !andb_true_r.
  destruct (sends_to S r p); [| reflexivity]. rewrite !map_map. apply map_ext_in. intros b Hb.
  destruct (cell_length S T cs ct b Hg Hb) as [H1 H2].
  unfold src_local, tgt_local. rewrite Hs, Ht, !localize_extents by lia. reflexivity.
Qed.
