// The class table and the growth rows: what grew, first snapshot against the last, and the owners
// that hold it.
/** @import {ClassDelta} from '../../diff/class-deltas.js' */
/** @import {GrowthGroup} from '../../diff/growth-groups.js' */
/** @import {Owner, PathStep} from './path-steps.js' */
import { optional } from './optional-field.js'
import { ownerModel, pathStepModel } from './path-steps.js'

/**
 * @typedef {object} ClassRow  a class in the first snapshot against the last (DevTools' Comparison view)
 * @property {string} name
 * @property {number} newCount
 * @property {number} deletedCount
 * @property {number} countDelta
 * @property {number} sizeDelta          shallow bytes allocated minus shallow bytes freed
 * @property {number} retainedSizeDelta
 * @property {string} [generatedName]    the class's name in the code that ran, when a minifier renamed it
 */

/**
 * @typedef {object} HeldClass  leaked objects of one class under a growth row
 * @property {string} name
 * @property {number} count
 * @property {number} size    bytes
 * @property {string} [generatedName]
 */

/**
 * An owner (or a group of owners on one path) whose new objects grew.
 * @typedef {object} GrowthRow
 * @property {Owner} owner             the group's largest owner
 * @property {PathStep[]} path         its retainer path
 * @property {number} ownerCount
 * @property {number} leakedObjects    allocated after the baseline and alive in the last snapshot
 * @property {number} leakedBytes      their shallow sizes
 * @property {number} recentObjects    allocated in the last step (three snapshots; 0 with two)
 * @property {number} recentBytes
 * @property {number} retainedBefore  owners' retained sizes in the first snapshot
 * @property {number | null} retainedMiddle  in the middle snapshot (null with two)
 * @property {number} retainedAfter   in the last snapshot
 * @property {HeldClass[]} classes     leaked objects by class, largest first
 * @property {number} entries          new objects held as entries of the owners themselves
 * @property {{name: string, count: number} | null} entryClass  the most common class among them
 * @property {boolean} leak            whether the row passes the growth thresholds
 * @property {Array<{ownerId: number, objects: number, bytes: number}>} sharedWith  other leaking
 *   rows holding most of this row's new objects too
 * @property {string} pathText         `path` folded for people, as the text report prints it
 */

/**
 * @param {ClassDelta} row
 * @returns {ClassRow}
 */
export function classRowModel (row) {
  return {
    name: row.name,
    newCount: row.newCount,
    deletedCount: row.deletedCount,
    countDelta: row.countDelta,
    sizeDelta: row.sizeDelta,
    retainedSizeDelta: row.retainedSizeDelta,
    ...optional('generatedName', row.generatedName)
  }
}

/**
 * @param {GrowthGroup} group
 * @param {string} pathText
 * @returns {GrowthRow}
 */
export function growthRowModel (group, pathText) {
  return {
    owner: ownerModel(group.owner),
    path: group.path.map(pathStepModel),
    ownerCount: group.ownerCount,
    leakedObjects: group.leakedObjects,
    leakedBytes: group.leakedBytes,
    recentObjects: group.recentObjects,
    recentBytes: group.recentBytes,
    retainedBefore: group.retainedBefore,
    retainedMiddle: group.retainedMiddle,
    retainedAfter: group.retainedAfter,
    classes: group.classes.map((held) => ({ name: held.name, count: held.count, size: held.size, ...optional('generatedName', held.generatedName) })),
    entries: group.entries,
    entryClass: group.entryClass && { name: group.entryClass.name, count: group.entryClass.count },
    leak: group.leak,
    sharedWith: group.sharedWith.map((shared) => ({ ownerId: shared.ownerId, objects: shared.objects, bytes: shared.bytes })),
    pathText
  }
}
