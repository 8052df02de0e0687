package hongbao.app;

import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.grab.Arming;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.Rearmer;
import hongbao.core.grab.StoreRepair;
import hongbao.core.ops.Switches;
import hongbao.core.ops.Violations;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.reconcile.Reconciler;
import hongbao.postgres.PostgresDatabase;

/** The wired pieces the workers run and tests reach into. */
public record Parts(
    PostgresDatabase database,
    GrabStore store,
    PayoutQueue queue,
    Switches switches,
    Arming arming,
    ExpirySweeper sweeper,
    Rearmer rearmer,
    StoreRepair repair,
    ClaimService claims,
    Violations violations,
    Reconciler reconciler) {}
