package hongbao.core.campaign;

/** A campaign's (or a round's) status on the clock. */
public enum CampaignStatus {
  SCHEDULED,
  RUNNING,
  ENDED
}
