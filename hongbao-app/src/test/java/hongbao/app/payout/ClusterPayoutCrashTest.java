package hongbao.app.payout;

import hongbao.app.support.Backends;

/**
 * The same crashes on an embedded Redis Cluster of three masters: the reclaimed tasks come from
 * streams on several masters.
 */
class ClusterPayoutCrashTest extends PayoutCrashTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }
}
