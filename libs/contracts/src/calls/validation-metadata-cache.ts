import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;

let installed = false;

/**
 * class-validator recomputes a class's rule list (filtering every registered rule, following
 * inheritance) and regroups it by property on every `validateSync`: a fifth of ingest's CPU at
 * full load. Rules are registered by decorators when classes load and never change afterwards,
 * so both results are memoised per class and options. Validation results are unchanged.
 */
export function cacheValidationMetadata(): void {
  if (installed) return;
  installed = true;
  const storage: Storage = getMetadataStorage();
  const targetMetadatas = storage.getTargetValidationMetadatas.bind(storage);
  const groupByProperty = storage.groupByPropertyName.bind(storage);
  const byClass = new Map<unknown, Map<string, ReturnType<Storage['getTargetValidationMetadatas']>>>();
  const grouped = new WeakMap<object, ReturnType<Storage['groupByPropertyName']>>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}|${always}|${strictGroups}|${(groups ?? []).join(',')}`;
    let forClass = byClass.get(target);
    if (!forClass) byClass.set(target, (forClass = new Map()));
    let result = forClass.get(key);
    if (!result) forClass.set(key, (result = targetMetadatas(target, schema, always, strictGroups, groups)));
    return result;
  };
  storage.groupByPropertyName = (metadatas) => {
    let result = grouped.get(metadatas);
    if (!result) grouped.set(metadatas, (result = groupByProperty(metadatas)));
    return result;
  };
}
