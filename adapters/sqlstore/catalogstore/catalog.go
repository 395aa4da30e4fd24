package catalogstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/catalog"
)

type serviceRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	Name        string     `gorm:"column:name"`
	Slug        string     `gorm:"column:slug"`
	Description *string    `gorm:"column:description"`
	Category    string     `gorm:"column:category"`
	ProviderURL string     `gorm:"column:provider_url"`
	ProviderKey *string    `gorm:"column:provider_key"`
	Method      string     `gorm:"column:method"`
	Headers     *string    `gorm:"column:headers"`
	Parameters  *string    `gorm:"column:parameters"`
	Status      string     `gorm:"column:status"`
	Builtin     bool       `gorm:"column:builtin"`
	SAC         *string    `gorm:"column:sac_code"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt   *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (serviceRow) TableName() string { return "api_services" }

// jsonMapToDB stores a nil map as NULL and any other map as a JSON object.
func jsonMapToDB(field string, m map[string]string) (*string, error) {
	if m == nil {
		return nil, nil
	}
	s, err := sqlbase.JSONToDB(field, m)
	return &s, err
}

func toServiceRow(s *catalog.Service) (serviceRow, error) {
	headers, err := jsonMapToDB("headers", s.Headers)
	if err != nil {
		return serviceRow{}, err
	}
	params, err := jsonMapToDB("parameters", s.Parameters)
	if err != nil {
		return serviceRow{}, err
	}
	r := serviceRow{
		ID:          s.ID,
		Name:        s.Name,
		Slug:        s.Slug,
		Description: s.Description,
		Category:    s.Category,
		ProviderURL: s.ProviderURL,
		ProviderKey: s.ProviderKey,
		Method:      s.Method,
		Headers:     headers,
		Parameters:  params,
		Status:      string(s.Status),
		Builtin:     s.Builtin,
		SAC:         s.SAC,
		CreatedAt:   sqlbase.Stamp(s.CreatedAt),
		UpdatedAt:   sqlbase.Stamp(s.UpdatedAt),
	}
	if r.Method == "" {
		r.Method = "POST"
	}
	if r.Status == "" {
		r.Status = string(catalog.StatusActive)
	}
	return r, nil
}

func toDomainService(r *serviceRow) (*catalog.Service, error) {
	s := &catalog.Service{
		ID:          r.ID,
		Name:        r.Name,
		Slug:        r.Slug,
		Description: r.Description,
		Category:    r.Category,
		ProviderURL: r.ProviderURL,
		ProviderKey: r.ProviderKey,
		Method:      r.Method,
		Status:      catalog.Status(r.Status),
		Builtin:     r.Builtin,
		SAC:         r.SAC,
		CreatedAt:   sqlbase.TimeFromDB(r.CreatedAt),
		UpdatedAt:   sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if r.Headers != nil {
		if err := sqlbase.JSONFromDB("headers", *r.Headers, &s.Headers); err != nil {
			return nil, fmt.Errorf("service %d: %w", r.ID, err)
		}
	}
	if r.Parameters != nil {
		if err := sqlbase.JSONFromDB("parameters", *r.Parameters, &s.Parameters); err != nil {
			return nil, fmt.Errorf("service %d: %w", r.ID, err)
		}
	}
	return s, nil
}

type docRow struct {
	ID              uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ServiceID       uint64     `gorm:"column:api_service_id"`
	Endpoint        string     `gorm:"column:endpoint"`
	Method          string     `gorm:"column:method"`
	Description     string     `gorm:"column:description"`
	RequestParams   string     `gorm:"column:request_params"`
	ResponseExample string     `gorm:"column:response_example"`
	ErrorCodes      string     `gorm:"column:error_codes"`
	SortOrder       int        `gorm:"column:sort_order"`
	CreatedAt       *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt       *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (docRow) TableName() string { return "api_documentations" }

func toDocRow(d *catalog.Doc) (docRow, error) {
	r := docRow{
		ID:          d.ID,
		ServiceID:   d.ServiceID,
		Endpoint:    d.Endpoint,
		Method:      d.Method,
		Description: d.Description,
		SortOrder:   d.SortOrder,
		CreatedAt:   sqlbase.Stamp(d.CreatedAt),
		UpdatedAt:   sqlbase.Stamp(d.UpdatedAt),
	}
	var err error
	if r.RequestParams, err = sqlbase.JSONToDB("request_params", nonNil(d.RequestParams)); err != nil {
		return r, err
	}
	if r.ResponseExample, err = sqlbase.JSONToDB("response_example", nonNil(d.ResponseExample)); err != nil {
		return r, err
	}
	if r.ErrorCodes, err = sqlbase.JSONToDB("error_codes", nonNil(d.ErrorCodes)); err != nil {
		return r, err
	}
	return r, nil
}

// nonNil keeps the required JSON columns objects ({}), never null.
func nonNil[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

func toDomainDoc(r *docRow) (*catalog.Doc, error) {
	d := &catalog.Doc{
		ID:          r.ID,
		ServiceID:   r.ServiceID,
		Endpoint:    r.Endpoint,
		Method:      r.Method,
		Description: r.Description,
		SortOrder:   r.SortOrder,
		CreatedAt:   sqlbase.TimeFromDB(r.CreatedAt),
		UpdatedAt:   sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if err := sqlbase.JSONFromDB("request_params", r.RequestParams, &d.RequestParams); err != nil {
		return nil, fmt.Errorf("docs of service %d: %w", r.ServiceID, err)
	}
	if err := sqlbase.JSONFromDB("response_example", r.ResponseExample, &d.ResponseExample); err != nil {
		return nil, fmt.Errorf("docs of service %d: %w", r.ServiceID, err)
	}
	if err := sqlbase.JSONFromDB("error_codes", r.ErrorCodes, &d.ErrorCodes); err != nil {
		return nil, fmt.Errorf("docs of service %d: %w", r.ServiceID, err)
	}
	return d, nil
}

// CatalogStore is the database's catalog.Repository.
type CatalogStore struct{ sqlbase.Base }

var _ catalog.Repository = (*CatalogStore)(nil)

func serviceWriteError(op string, err error) error {
	if msg, dup := sqlbase.DuplicateOf(err); dup && sqlbase.Mentions(msg, "api_services_slug_unique", "api_services.slug") {
		return catalog.ErrSlugTaken.Wrap(err)
	}
	return fmt.Errorf("%s: %w", op, sqlbase.Translate(err))
}

func (s *CatalogStore) Create(ctx context.Context, svc *catalog.Service) error {
	r, err := sealedServiceRow(s.Base, svc)
	if err != nil {
		return fmt.Errorf("create service: %w", err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return serviceWriteError("create service", err)
	}
	svc.ID = r.ID
	svc.CreatedAt, svc.UpdatedAt = sqlbase.TimeFromDB(r.CreatedAt), sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

func (s *CatalogStore) find(ctx context.Context, column string, value any) (*catalog.Service, error) {
	return s.findOn(s.Conn(ctx), column, value)
}

func (s *CatalogStore) findOn(q *gorm.DB, column string, value any) (*catalog.Service, error) {
	var r serviceRow
	if err := q.Where(column+" = ?", value).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, catalog.ErrServiceNotFound)
	}
	return openService(s.Base, &r)
}

// sealedServiceRow is svc's row as stored: its provider key sealed.
func sealedServiceRow(b sqlbase.Base, svc *catalog.Service) (serviceRow, error) {
	r, err := toServiceRow(svc)
	if err != nil {
		return r, err
	}
	r.ProviderKey, err = b.SealPtr("provider_key", r.ProviderKey)
	return r, err
}

// openService is the service of a row as stored: its provider key opened.
func openService(b sqlbase.Base, r *serviceRow) (*catalog.Service, error) {
	svc, err := toDomainService(r)
	if err != nil {
		return nil, err
	}
	if svc.ProviderKey, err = b.OpenPtr("provider_key", r.ProviderKey); err != nil {
		return nil, fmt.Errorf("service %d: %w", r.ID, err)
	}
	return svc, nil
}

func (s *CatalogStore) ByID(ctx context.Context, id uint64) (*catalog.Service, error) {
	return s.find(ctx, "id", id)
}

func (s *CatalogStore) LockByID(ctx context.Context, id uint64) (*catalog.Service, error) {
	return s.findOn(s.Locking(s.Conn(ctx)), "id", id)
}

func (s *CatalogStore) BySlug(ctx context.Context, slug string) (*catalog.Service, error) {
	return s.find(ctx, "slug", slug)
}

func (s *CatalogStore) ExistingIDs(ctx context.Context, ids []uint64) ([]uint64, error) {
	found := []uint64{}
	if len(ids) == 0 {
		return found, nil
	}
	if err := s.Conn(ctx).Model(&serviceRow{}).Where("id IN ?", ids).Pluck("id", &found).Error; err != nil {
		return nil, fmt.Errorf("find services by id: %w", sqlbase.Translate(err))
	}
	return found, nil
}

// List lists services newest first; Q matches name, slug, category or description.
func (s *CatalogStore) List(ctx context.Context, f catalog.Filter) ([]catalog.Service, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Category != "" {
			q = q.Where("category = ?", f.Category)
		}
		if f.Q != "" {
			p := sqlbase.LikePattern(f.Q)
			q = q.Where("(name LIKE ?"+sqlbase.LikeEscape+" OR slug LIKE ?"+sqlbase.LikeEscape+
				" OR category LIKE ?"+sqlbase.LikeEscape+" OR description LIKE ?"+sqlbase.LikeEscape+")", p, p, p, p)
		}
		return q
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "services", func(r *serviceRow) (catalog.Service, error) {
		v, err := openService(s.Base, r)
		if err != nil {
			return catalog.Service{}, err
		}
		return *v, nil
	})
}

func (s *CatalogStore) Update(ctx context.Context, svc *catalog.Service) error {
	r, err := sealedServiceRow(s.Base, svc)
	if err != nil {
		return fmt.Errorf("update service %d: %w", svc.ID, err)
	}
	res := s.Conn(ctx).Model(&serviceRow{}).Where("id = ?", svc.ID).Updates(map[string]any{
		"name":         r.Name,
		"slug":         r.Slug,
		"description":  r.Description,
		"category":     r.Category,
		"provider_url": r.ProviderURL,
		"provider_key": r.ProviderKey,
		"method":       r.Method,
		"headers":      r.Headers,
		"parameters":   r.Parameters,
		"status":       r.Status,
		"builtin":      r.Builtin,
		"sac_code":     r.SAC,
		"updated_at":   r.UpdatedAt,
	})
	if res.Error != nil {
		return serviceWriteError(fmt.Sprintf("update service %d", svc.ID), res.Error)
	}
	if res.RowsAffected == 0 {
		return catalog.ErrServiceNotFound
	}
	svc.UpdatedAt = sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

// Delete removes a service; its pricing rows and docs go with it (ON DELETE
// CASCADE), its hit logs stay.
func (s *CatalogStore) Delete(ctx context.Context, id uint64) error {
	res := s.Conn(ctx).Where("id = ?", id).Delete(&serviceRow{})
	if res.Error != nil {
		return fmt.Errorf("delete service %d: %w", id, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return catalog.ErrServiceNotFound
	}
	return nil
}

func (s *CatalogStore) Doc(ctx context.Context, serviceID uint64) (*catalog.Doc, error) {
	var r docRow
	if err := s.Conn(ctx).Where("api_service_id = ?", serviceID).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, catalog.ErrDocNotFound)
	}
	return toDomainDoc(&r)
}

// PutDoc inserts the service's documentation or replaces every field of the
// existing record but its id and created_at, in one upsert on the unique
// api_service_id.
func (s *CatalogStore) PutDoc(ctx context.Context, d *catalog.Doc) error {
	r, err := toDocRow(d)
	if err != nil {
		return fmt.Errorf("put docs of service %d: %w", d.ServiceID, err)
	}
	r.ID = 0
	err = s.Conn(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "api_service_id"}},
		DoUpdates: clause.AssignmentColumns([]string{
			"endpoint", "method", "description", "request_params", "response_example",
			"error_codes", "sort_order", "updated_at",
		}),
	}).Create(&r).Error
	if err != nil {
		if f, _ := sqlbase.Classify(err); f == sqlbase.FailForeignKey {
			return catalog.ErrServiceNotFound.Wrap(err)
		}
		return fmt.Errorf("put docs of service %d: %w", d.ServiceID, sqlbase.Translate(err))
	}
	// The id of a replaced row is not reported reliably by MySQL's upsert: read it.
	var stored docRow
	if err := s.Conn(ctx).Select("id", "created_at", "updated_at").Where("api_service_id = ?", d.ServiceID).Take(&stored).Error; err != nil {
		return fmt.Errorf("read docs of service %d: %w", d.ServiceID, sqlbase.Translate(err))
	}
	d.ID = stored.ID
	d.CreatedAt, d.UpdatedAt = sqlbase.TimeFromDB(stored.CreatedAt), sqlbase.TimeFromDB(stored.UpdatedAt)
	return nil
}
