export * from "./backup-codes";
export * from "./challenges";
export * from "./enrolment";
export * from "./recovery";
export * from "./second-factor";
export * from "./step-up";
export * from "./totp";
export * from "./turn-off";
