package hongbao.http;

import hongbao.core.activity.ActivityService;
import hongbao.core.details.Boxes;
import hongbao.core.details.DetailsService;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabService;
import hongbao.core.ledger.TopUpService;
import hongbao.core.ops.Switches;
import hongbao.core.reconcile.Reconciler;
import hongbao.core.send.SendService;
import hongbao.core.wallet.WalletService;
import hongbao.core.withdrawal.GatewayCallbacks;
import hongbao.core.withdrawal.WithdrawalService;
import hongbao.http.auth.VerifiedTokens;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.BooleanSupplier;

/**
 * What the HTTP adapter serves, wired by the composition root.
 *
 * @param devMode whether dev tokens may be minted
 * @param ready whether every dependency answers; called off the event loop
 * @param withdrawals withdrawal requests and queries
 * @param gatewayCallbacks the payment gateway's signed callbacks
 */
public record HttpServices(
    SendService send,
    GrabService grab,
    ClaimService claims,
    DetailsService details,
    Boxes boxes,
    WalletService wallets,
    TopUpService topUps,
    Switches switches,
    Reconciler reconciler,
    VerifiedTokens tokens,
    PacketIds packetIds,
    GrabLimiter grabLimiter,
    PrometheusMeterRegistry metrics,
    BooleanSupplier ready,
    boolean devMode,
    ActivityService activities,
    WithdrawalService withdrawals,
    GatewayCallbacks gatewayCallbacks) {}
