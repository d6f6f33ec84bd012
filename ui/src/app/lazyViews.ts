//! The views and dialogs the first screen does not show, each fetched the first time it is
//! opened: the workbench starts on the editor, and the code of the run viewer, the batch tab,
//! the review queue and the dialogs comes when asked for (a local file, in the app).

import { type ComponentType, lazy } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's own bound for lazy()
const later = <T extends ComponentType<any>>(load: () => Promise<T>) => lazy(() => load().then((component) => ({ default: component })));

export const RunViewer = later(() => import('../run/RunViewer').then((m) => m.RunViewer));
export const BatchView = later(() => import('../batch/BatchView').then((m) => m.BatchView));
export const ReviewPanel = later(() => import('../review/ReviewPanel').then((m) => m.ReviewPanel));

export const StartRunDialog = later(() => import('../run/StartRunDialog').then((m) => m.StartRunDialog));
export const BatchDialog = later(() => import('../batch/BatchDialog').then((m) => m.BatchDialog));
export const SaveHealedDialog = later(() => import('../run/SaveHealedDialog').then((m) => m.SaveHealedDialog));
export const GoalRunDialog = later(() => import('./GoalRunDialog').then((m) => m.GoalRunDialog));
export const ModelSettingsDialog = later(() => import('./ModelSettingsDialog').then((m) => m.ModelSettingsDialog));
export const RecordDialog = later(() => import('./RecordDialog').then((m) => m.RecordDialog));
export const TrashDialog = later(() => import('./TrashDialog').then((m) => m.TrashDialog));
