package hongbao.app.race;

import hongbao.app.support.Backends;

/** The same race on an embedded Redis Cluster of three masters. */
class ClusterPendingAmountRaceTest extends PendingAmountRaceTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }

  @Override
  boolean pendingHashEndsEmpty() {
    return false;
  }
}
